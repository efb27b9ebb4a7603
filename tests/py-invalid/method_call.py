# error: line 5: unsupported construct: method call .tolist() (not an array method compiled code has)
from postyp import Bool, Float64, Int64, Out

def total(a: Float64[:]) -> Float64:
    a.tolist()
    return a[0]
