# error: lines 7, 10, 13, 16, 19, 22, 25: default values that do not fit their parameters (a float for Int32, 300 for Int8, a number for an array, an array of another dtype, of another rank, a default of an output, a shape not constant)
import numpy as np
from postyp import Bool, Float64, Int8, Int32, Out

n = 3

def scale(x: Float64, n: Int32 = 2.5) -> Float64:
    return x * n

def shift(x: Int8, by: Int8 = 300) -> Int8:
    return x + by

def total(a: Float64[:] = 0.0) -> Float64:
    return a[0]

def masked(a: Float64[:], mask: Bool[:] = np.zeros(3)) -> Float64:
    return a[0]

def ranked(a: Float64[:, :] = np.ones(3)) -> Float64:
    return a[0, 0]

def written(a: Out[Float64[:]] = np.zeros(3, dtype=np.float64)) -> None:
    a[0] = 1.0

def sized(a: Float64[:] = np.zeros(n, dtype=np.float64)) -> Float64:
    return a[0]
