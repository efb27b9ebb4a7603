# error: line 8: statement not allowed at module level: a call
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    return x


f(3)
