# error: line 5: undefined name 'y'
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    return x + y
