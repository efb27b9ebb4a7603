# error: line 8: a positional argument after a keyword one (a syntax error in Python)
from postyp import Float64

def scale(x: Float64, k: Float64 = 2.0) -> Float64:
    return x * k

def f(x: Float64) -> Float64:
    return scale(k=3.0, x)
