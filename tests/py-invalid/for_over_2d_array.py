# error: line 6: a for loop over a 2-D array would give rows (views)
from postyp import Bool, Float64, Int64, Out

def total(a: Float64[:, :]) -> Float64:
    s = 0.0
    for row in a:
        s += row[0]
    return s
