# error: line 7: `ravel` and `copy` take no `dtype=` (NumPy raises TypeError)
import numpy as np
from postyp import Float64, Float32


def first(a: Float64[:, :]) -> Float32:
    r = a.ravel(dtype=np.float32)
    return r[0]


def head(a: Float64[:]) -> Float64:
    c = a.copy(dtype=np.float64)
    return c[0]
