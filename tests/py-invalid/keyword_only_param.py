# error: line 4: unsupported construct: keyword-only parameter
from postyp import Bool, Float64, Int64, Out

def scale(x: Float64, *, k: Float64) -> Float64:
    return x * k
