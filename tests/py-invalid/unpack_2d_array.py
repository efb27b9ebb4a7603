# error: line 5: a 2-D array unpacked into names
from postyp import Float64

def f(m: Float64[:, :]) -> Float64:
    a, b = m
    return a[0] + b[0]
