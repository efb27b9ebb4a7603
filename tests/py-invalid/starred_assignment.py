# error: line 5: unsupported construct: starred assignment target
from postyp import Bool, Float64, Int64, Out

def f(a: Int64[:]) -> Int64:
    first, *rest = a
    return first
