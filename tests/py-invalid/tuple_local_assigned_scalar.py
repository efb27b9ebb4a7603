# error: line 6: a tuple local assigned a scalar
from postyp import Int64

def f(x: Int64) -> Int64:
    t = (x, x)
    t = x
    return x
