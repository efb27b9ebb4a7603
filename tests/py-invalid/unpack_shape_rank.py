# error: line 5: a 3-D array's shape unpacked into two names
from postyp import Float64, Int64

def f(t: Float64[:, :, :]) -> Int64:
    n, m = t.shape
    return n * m
