# error: line 5: a slice of an input array cannot be assigned
from postyp import Float64

def clear(a: Float64[:, :]) -> None:
    a[:, 0] = 0.0
