# error: line 5: unsupported construct: ravel (not compiled yet)
from postyp import Float64

def flat(a: Float64[:, :]) -> Float64[:]:
    return a.ravel()
