# error: line 5: a[0] of a 2-D array is a row (an array), not a Float64
from postyp import Float64

def first(a: Float64[:, :]) -> Float64:
    return a[0]
