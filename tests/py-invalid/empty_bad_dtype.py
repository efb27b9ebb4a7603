# error: line 8: empty() needs a dtype as its second argument, got 'n'
from postyp import Bool, Float64, Int64, Out

from postc import empty


def scratch(n: Int64) -> Float64:
    t = empty(n, n)
    t[0] = 1.0
    return t[0]
