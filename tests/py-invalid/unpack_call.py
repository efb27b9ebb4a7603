# error: line 8: only a tuple of values or a shape unpacks
from postyp import Int64

def g(x: Int64) -> Int64:
    return x

def f(x: Int64) -> Int64:
    a, b = g(x)
    return a
