# error: line 6: `None` assigned to a Float64 parameter (in a branch: at the top level it would bind a new local)
from postyp import Float64

def clear(x: Float64) -> Float64:
    if x > 0.0:
        x = None
    return 0.0
