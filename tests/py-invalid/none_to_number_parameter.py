# error: line 5: `None` assigned to a Float64 parameter
from postyp import Float64

def clear(x: Float64) -> Float64:
    x = None
    return 0.0
