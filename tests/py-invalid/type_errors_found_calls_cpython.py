# error: NumPy's where and clip of numbers, iinfo and finfo not read an attribute of, ndindex not looped over, and Numba's functions but prange, are CPython functions to compiled code: the typecheck's, all reported
import numpy as np
import numba
from numba import njit
from postyp import Float64, Int64


def f(x: Float64[:], t: Float64) -> Float64:
    a = np.where(t > 0.0, t, 1.0)
    b = np.clip(t, 0.0, 1.0)
    c = np.where(t > 0.0, t)
    i = np.iinfo(Int64)
    j = np.finfo(np.float64)
    k = np.ndindex(3)
    m = njit(t)
    n = numba.njit(t)
    o = numba.float64(t)
    p = np.iinfo(Int64).max
    q = np.where(x > t, x, 0.0)
    return t
