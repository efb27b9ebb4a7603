# error: line 6: unsupported construct: for loop over something other than range()
from postyp import Bool, Float64, Int64, Out

def total(a: Float64[:]) -> Float64:
    s = 0.0
    for v in a:
        s += v
    return s
