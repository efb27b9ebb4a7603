# error: line 5: unsupported construct: lambda
from postyp import Bool, Float64, Int64, Out

def apply(x: Int64) -> Int64:
    inc = lambda v: v + 1
    return inc(x)
