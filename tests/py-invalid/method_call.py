# error: line 5: unsupported construct: method call .argsort() (not an array method compiled code has)
from postyp import Bool, Float64, Int64, Out

def total(a: Float64[:]) -> Float64:
    a.argsort()
    return a[0]
