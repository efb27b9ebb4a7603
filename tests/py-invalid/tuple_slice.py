# error: line 6: a slice of a tuple
from postyp import Int64

def f(x: Int64) -> Int64:
    t = (x, 1, 2)
    u = t[1:]
    return x
