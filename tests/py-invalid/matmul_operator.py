# error: products refused: `@` of a scalar, `np.dot` of a scalar, of an array of three axes, with `out=`, with three arguments
import numpy as np
from postyp import Float64, Int64


def product(a: Float64[:, :], x: Float64, t: Float64[:, :, :], n: Int64) -> Float64:
    p = a @ x
    q = np.dot(2.0, a)
    r = np.dot(t, a)
    u = np.dot(a, a, out=a)
    v = np.dot(a, a, a)
    return n
