# error: line 8: np.float_ is gone in NumPy 2; line 9: a local bound to two dtypes; line 14: argmax with a tuple of axes; line 15: two of three axes at once; line 16: keepdims not a constant; line 18: a parameter rebound to another type in a branch (line 19 writes that new array: accepted; at the top level the binding is a new local); line 25: an F-order parameter rebound to a C-order array in a loop
import numpy as np
from postyp import Bool, Float64, Int64


def f(a: Float64[:, :], b: Float64[:, :, :], x: Float64[:], k: Bool, c: Bool) -> Float64:
    n = 4
    y = np.zeros(n, dtype=np.float_)
    dtype = np.int32
    if c:
        dtype = np.int64
    z = np.empty(n, dtype=dtype)
    s = 0.0
    i = np.argmax(a, axis=(0, 1))
    t = np.sum(b, axis=(0, 1))
    u = np.sum(a, axis=0, keepdims=k)
    if c:
        x = a[0] * 2.0 + a
        x[1:] += 1.0
    return s


def g(f: Float64[::1, :]) -> Float64:
    for _ in range(2):
        f = f * 2.0
    return f[0, 0]
