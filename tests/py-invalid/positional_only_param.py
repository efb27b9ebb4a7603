# error: line 4: positional-only parameters
from postyp import Float64

def scale(x: Float64, /, k: Float64 = 2.0) -> Float64:
    return x * k
