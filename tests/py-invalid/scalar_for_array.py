# error: line 9: argument 1 of 'total' must be an array Float64[:], got the scalar Float64
from postyp import Bool, Float64, Int64, Out

def total(a: Float64[:]) -> Float64:
    return a[0]


def f(x: Float64) -> Float64:
    return total(x)
