# error: line 13: argument 1 of 'total' must be Float64[:], got Float32[:]
from postyp import Float32, Float64


def total(a: Float64[:]) -> Float64:
    s = 0.0
    for i in range(len(a)):
        s += a[i]
    return s


def total32(a: Float32[:]) -> Float64:
    return total(a)
