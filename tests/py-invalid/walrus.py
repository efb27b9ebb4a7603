# error: line 5: unsupported construct: assignment expression ':='
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    if (y := x * 2) > 10:
        return y
    return x
