# error: line 5: cannot index 'x', an Int64 scalar
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    return x[0]
