# error: line 6: a shape is integers, not Float64 (and line 7: not an array)
import numpy as np
from postyp import Float64, Int64

def make(n: Int64, a: Float64[:]) -> Float64:
    b = np.empty(n / 2)
    c = np.zeros((n, a))
    return a[0]
