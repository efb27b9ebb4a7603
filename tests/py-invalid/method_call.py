# error: line 5: unsupported construct: method call .sum() (built-ins: len, abs, min, max, casts; methods: conjugate)
from postyp import Bool, Float64, Int64, Out

def total(a: Float64[:]) -> Float64:
    return a.sum()
