# error: line 5: `x is not None` on a Float64 parameter
from postyp import Float64

def f(x: Float64) -> Float64:
    if x is not None:
        return x
    return 0.0
