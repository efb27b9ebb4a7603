# error: line 5: '&' needs integer (or Bool) operands, got Float64
from postyp import Bool, Float64, Int64, Out

def mask(x: Float64, y: Float64) -> Float64:
    return x & y
