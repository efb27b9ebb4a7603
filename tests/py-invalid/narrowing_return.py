# error: line 5: returned value is Float64, the function returns Int64 (narrowing)
from postyp import Bool, Float64, Int64, Out

def half(n: Int64) -> Int64:
    return n / 2
