# error: line 6: a tuple repeated with `*`
from postyp import Int64

def f(x: Int64) -> Int64:
    t = (x, 1)
    u = t * 2
    return u[0]
