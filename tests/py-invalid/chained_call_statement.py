# error: line 5: unsupported construct: expression statement that is not a call
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    x + 1
    return x
