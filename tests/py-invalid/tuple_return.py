# error: line 5: a tuple returned by a function declared to return Int64
from postyp import Bool, Float64, Int64, Out

def divmod2(a: Int64, b: Int64) -> Int64:
    return a // b, a % b
