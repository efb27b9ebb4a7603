# error: line 5: unsupported construct: tuple literal
from postyp import Bool, Float64, Int64, Out

def pair(x: Int64) -> Int64:
    t = (x, x + 1)
    return t[0] + t[1]
