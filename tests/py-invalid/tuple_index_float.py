# error: line 6: a tuple indexed with a float
from postyp import Float64, Int64

def f(x: Int64, k: Float64) -> Int64:
    t = (x, 1, 2)
    return t[k]
