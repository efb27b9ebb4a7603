# error: line 8: only a tuple or a 1-D array unpacks
from postyp import Int64

def g(x: Int64) -> Int64:
    return x

def f(x: Int64) -> Int64:
    a, b = g(x)
    return a
