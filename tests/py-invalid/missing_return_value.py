# error: line 6: 'f' returns Int64 but this return has no value
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    if x > 0:
        return
    return x
