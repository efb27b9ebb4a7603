# error: line 5: unsupported construct: returning a tuple
from postyp import Bool, Float64, Int64, Out

def divmod2(a: Int64, b: Int64) -> Int64:
    return a // b, a % b
