# error: line 5: 'a' has 2 dimensions but is indexed with 3 (one of them a slice)
from postyp import Bool, Float64, Int64, Out

def first(a: Float64[:, :]) -> Float64:
    return a[0, :, 1]
