# error: line 5: len() needs an array, Str or Bytes, got Float64
from postyp import Bool, Float64, Int64, Out

def size(x: Float64) -> Int64:
    return len(x)
