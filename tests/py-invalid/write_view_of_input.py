# error: line 6: a view of an input array is read-only, as the input is
from postyp import Float64

def clear_row(a: Float64[:, :]) -> None:
    r = a[0]
    r[1] = 0.0
