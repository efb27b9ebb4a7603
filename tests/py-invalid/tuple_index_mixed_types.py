# error: line 6: a run-time index into a tuple whose elements differ in type
from postyp import Float64, Int64

def pick(x: Int64, y: Float64, i: Int64) -> Float64:
    t = (x, y)
    return t[i]
