# error: line 4: parameter 'k' has no type annotation
from postyp import Bool, Float64, Int64, Out

def scale(x: Float64, k) -> Float64:
    return x * k
