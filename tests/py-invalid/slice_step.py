# error: line 5: unsupported construct: slicing with a step
from postyp import Bool, Float64, Int64, Out

def first(a: Float64[:]) -> Float64:
    r = a[::2]
    return r[0]
