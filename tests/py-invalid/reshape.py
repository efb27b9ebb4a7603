# error: line 5: unsupported construct: reshape (not compiled yet)
from postyp import Float64

def as_matrix(a: Float64[:]) -> Float64[:, :]:
    return a.reshape(2, 3)
