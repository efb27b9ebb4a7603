# error: line 4: unsupported construct: default parameter value
from postyp import Bool, Float64, Int64, Out

def scale(x: Float64, k: Float64 = 2.0) -> Float64:
    return x * k
