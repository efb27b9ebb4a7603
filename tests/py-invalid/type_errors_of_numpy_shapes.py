# error: the shapes and the bounds of NumPy's array creations that compiled code refuses (no extent, extents that are not integers, every one reported; bounds of `np.arange` that are not integers or floats, dtypes it does not make) are the typecheck's: all reported, with no echo of the calls they refuse
import numpy as np
from postyp import Complex128, Float64, Int64


def shapes(a: Float64[:, :], n: Int64, x: Float64, t: tuple[Int64, Float64]) -> Float64:
    b = np.zeros(())
    c = np.ones((n, x, a))
    d = np.empty(t)
    f = np.full(x, 1.0)
    g = np.zeros([n, (n, n)], dtype=np.int32)
    h = np.zeros(n, bool, 3)
    return x


def ranges(n: Int64, x: Float64, z: Complex128, t: tuple[Int64, Int64]) -> Float64:
    a = np.arange(z)
    b = np.arange(0, True)
    c = np.arange(n, t)
    d = np.arange(n, dtype=np.complex128)
    e = np.arange(0.0, x, dtype=bool)
    f = np.arange(0, "s")
    g = np.arange(x, n, 2)
    return x
