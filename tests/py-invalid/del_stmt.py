# error: line 6: unsupported construct: del statement
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    y = x + 1
    del y
    return x
