# error: line 5: 'a' has 1 dimension but is indexed with 2 indices
from postyp import Bool, Float64, Int64, Out

def first(a: Float64[:]) -> Float64:
    return a[0, 0]
