# error: lines 4, 7, 10: default values that do not fit their parameters (a float for Int32, 300 for Int8, a number for an array)
from postyp import Float64, Int8, Int32

def scale(x: Float64, n: Int32 = 2.5) -> Float64:
    return x * n

def shift(x: Int8, by: Int8 = 300) -> Int8:
    return x + by

def total(a: Float64[:] = 0.0) -> Float64:
    return a[0]
