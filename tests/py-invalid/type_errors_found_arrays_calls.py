# error: the arguments of NumPy's functions over arrays that compiled code refuses are the typecheck's: a fill value that does not fill the array's dtype, `None` where a number or an array is read, `x.shape` of a number
import numpy as np
from postyp import Complex128, Float64, Int64


def fills(n: Int64, b: Float64[:], z: Complex128) -> None:
    c = np.full(n, z, dtype=np.float64)
    e = np.full(n, "a", dtype=np.float64)
    f = np.full_like(b, 1j)
    g = np.full_like(b, "x")
    h = np.full(n, None)
    k = np.full_like(b, None)


def shapes(n: Int64, a: Float64[:], x: Float64) -> None:
    b = np.zeros((3, None))
    c = np.zeros(x.shape)
    d = a.reshape(n, None)
    e = a.reshape((n, None))
    f = np.arange(0, 5, None)
    g = np.zeros_like(None)


def none_read(a: Float64[:], m: Float64[:, :]) -> Float64:
    b = np.histogram(a, bins=3, range=(0.0, None))
    c = np.histogram(a, bins=None)
    d = np.searchsorted(a, None)
    e = np.cross(a, [1, None, 2])
    f = np.partition(a, None)
    g = np.nanvar(a, ddof=None)
    h = np.dot(a, None)
    k = np.linalg.det(None)
    return 0.0
