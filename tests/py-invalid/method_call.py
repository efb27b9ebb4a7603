# error: line 5: unsupported construct: method call .sort() (methods: conjugate, copy and the reductions)
from postyp import Bool, Float64, Int64, Out

def total(a: Float64[:]) -> Float64:
    a.sort()
    return a[0]
