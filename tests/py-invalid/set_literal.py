# error: line 5: unsupported construct: set literal
from postyp import Bool, Float64, Int64, Out

def small(x: Int64) -> Int64:
    s = {1, 2, 3}
    return x
