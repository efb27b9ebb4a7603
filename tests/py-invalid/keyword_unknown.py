# error: line 8: a keyword that names no parameter
from postyp import Float64

def scale(x: Float64, k: Float64 = 2.0) -> Float64:
    return x * k

def f(x: Float64) -> Float64:
    return scale(x, factor=3.0)
