# error: line 6: a tuple of three unpacked into two names
from postyp import Int64

def f(x: Int64) -> Int64:
    t = (x, x, x)
    a, b = t
    return a + b
