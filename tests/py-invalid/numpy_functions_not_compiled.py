# error: a NumPy function compiled code does not call is a CPython function, reported where it is called (imported from NumPy too), with its arguments checked and nothing echoed
import numpy as np
from numpy import median
from postyp import Float64, Int64


def f(a: Float64[:], x: Float64, n: Int64) -> Float64:
    b = np.median(a)
    c = median(a)
    i, j = np.indices((n, n))
    d = np.repeat(a, undefined_count)
    return b + c + d[0] + x
