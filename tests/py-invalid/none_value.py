# error: line 5: a local bound only to None
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    y = None
    return x
