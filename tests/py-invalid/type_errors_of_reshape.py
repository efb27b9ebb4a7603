# error: the reshapes compiled code refuses (no shape, the shape `()`, extents that are not integers, every one, what is not an array) are the typecheck's: all reported, with no echo in what reads the reshaped array
import numpy as np
from postyp import Float64, Int64


def reshapes(a: Float64[:], x: Float64, n: Int64) -> Float64:
    b = a.reshape()
    c = a.reshape(())
    d = a.reshape(2.5, x)
    e = np.reshape(x, (n, 2))
    f = np.reshape(a, (n, 1.5))
    g = a.reshape((n, 2))
    return b[0, 0] + c[0] + d[0, 0] + e[0, 0] + f[0, 0] + g[0, 0]
