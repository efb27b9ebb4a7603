# error: line 5: array index must be an integer, not Float64
from postyp import Bool, Float64, Int64, Out

def at(a: Float64[:], x: Float64) -> Float64:
    return a[x]
