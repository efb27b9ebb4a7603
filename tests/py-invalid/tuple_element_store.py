# error: line 6: an element of a tuple assigned
from postyp import Int64

def f(x: Int64) -> Int64:
    t = (x, x)
    t[0] = 1
    return t[0]
