# error: line 4: unknown type 'Float128'
from postyp import Bool, Float64, Int64, Out

def widen(x: Float64) -> Float128:
    return x
