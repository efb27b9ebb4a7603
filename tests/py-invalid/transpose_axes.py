# error: line 5: unsupported construct: transpose with axes
from postyp import Float64

def swapped(a: Float64[:, :]) -> Float64[:, :]:
    return a.transpose(1, 0)
