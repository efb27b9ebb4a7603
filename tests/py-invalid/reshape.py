# error: line 5: reshape in Fortran order (`order=`) is not compiled
from postyp import Float64

def as_matrix(a: Float64[:]) -> Float64[:, :]:
    return a.reshape(2, 3, order="F")
