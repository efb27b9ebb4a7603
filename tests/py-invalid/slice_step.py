# error: line 5: a slice's step is zero (NumPy's ValueError)
from postyp import Bool, Float64, Int64, Out

def first(a: Float64[:]) -> Float64:
    r = a[::0]
    return r[0]
