# error: line 4: unknown name 'Float32' (not imported from postyp)
from postyp import Bool, Float64, Int64, Out

def narrow(x: Float64) -> Float32:
    return x
