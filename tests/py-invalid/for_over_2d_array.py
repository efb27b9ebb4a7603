# error: line 7: the rows of an input array are read-only, as the input is
from postyp import Bool, Float64, Int64, Out

def clear_first(a: Float64[:, :]) -> None:
    s = 0.0
    for row in a:
        row[0] = s
