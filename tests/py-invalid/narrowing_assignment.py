# error: line 6: cannot assign a Float64 value to 'k', declared Int64 (narrowing)
from postyp import Bool, Float64, Int64, Out

def f(x: Float64) -> Int64:
    k: Int64 = 0
    k = x * 0.5
    return k
