"""Dtype parameters: `dtype: type[Float32]` is a parameter that is a
dtype, fixed when the function compiles (`@jit` compiles one function for
each dtype a call gives a parameter annotated `np.dtype`, as Numba does).
The body reads its name as that dtype: `dtype=` of NumPy's creation
functions, a cast, `np.zeros(..., dtype)`. The IR has no parameter for
it; Python callers pass the dtype (a NumPy type or an `np.dtype`)."""
import numpy as np
from postyp import Float32, Float64, Int32, Int64, UInt8


def filled(n: Int64, dtype: type[Float32], x: Float64) -> Float32[:]:
    """n elements of that dtype, x * i each."""
    out = np.empty(n, dtype=dtype)
    for i in range(n):
        out[i] = x * i
    return out


def total_as(a: Float64[:], dt: type[Int32]) -> Int32:
    """The sum of the elements, each cast to the dtype first."""
    s = dt(0)
    for v in a:
        s += dt(v)
    return s


def mask_of(a: Float64[:, :], dt: type[UInt8], lo: Float64) -> UInt8[:, :]:
    """1 where a >= lo, in a new array of the dtype."""
    m = np.zeros(a.shape, dtype=dt)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if a[i, j] >= lo:
                m[i, j] = 1
    return m
