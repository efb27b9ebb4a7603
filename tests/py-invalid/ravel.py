# error: line 6: a.ravel() of an input array may be a view of it, read-only as the input is
from postyp import Float64

def clear(a: Float64[:, :]) -> None:
    r = a.ravel()
    r[0] = 0.0
