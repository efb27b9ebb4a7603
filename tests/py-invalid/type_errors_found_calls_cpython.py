# error: NumPy's where and clip of numbers, iinfo and finfo not read an attribute of, ndindex not looped over, the functions of NumPy's modules, and Numba's functions but prange, are CPython functions to compiled code: the typecheck's, all reported
import numpy as np
import numpy.random as npr
from numpy.random import rand
from numpy import linalg, random
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
    r = rand(3)
    s = npr.rand(3)
    u = random.rand(3)
    v = linalg.norm(x)
    w = np.linalg.norm(x)
    return t
