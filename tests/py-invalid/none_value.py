# error: line 5: unsupported construct: None as a value
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    y = None
    return x
