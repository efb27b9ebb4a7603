# error: line 5: '<<' needs integer operands, got Float64 and Int64
from postyp import Bool, Float64, Int64, Out

def shift(x: Float64, k: Int64) -> Float64:
    return x << k
