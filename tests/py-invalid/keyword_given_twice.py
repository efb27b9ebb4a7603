# error: line 8: a parameter given by position and by keyword
from postyp import Float64

def scale(x: Float64, k: Float64 = 2.0) -> Float64:
    return x * k

def f(x: Float64) -> Float64:
    return scale(x, 3.0, k=4.0)
