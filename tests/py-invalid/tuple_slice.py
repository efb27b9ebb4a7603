# error: line 6: a slice of a tuple with a bound known only at run time
from postyp import Int64

def f(x: Int64) -> Int64:
    t = (x, 1, 2)
    u = t[x:]
    return x
