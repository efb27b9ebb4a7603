# error: line 4: `None` as the default of a Float64 parameter
from postyp import Float64

def scale(x: Float64, k: Float64 = None) -> Float64:
    return x * k
