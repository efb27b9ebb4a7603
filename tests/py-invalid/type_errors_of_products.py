# error: the products `np.dot`, `a.dot(b)` and `@` compiled code refuses (keywords, `*` operands, other than two operands, scalars, arrays of text or of three axes or more, matrices made in GPU code) are the typecheck's: all reported, with no echo of the products they refuse
import numpy as np
from postc import gpu
from postyp import Float64, Int64


def products(a: Float64[:], m: Float64[:, :], c: Float64[:, :, :], s: str, x: Float64) -> Float64:
    b = np.dot(a, a, out=a)
    d = np.dot(a, a, a)
    e = np.dot(x, a)
    f = a.dot(c)
    g = x @ a
    h = m @ c
    k = np.dot(*(a, a))
    return b + d + e + f + g[0] + h[0, 0] + k + np.dot(a, a)


@gpu
def in_gpu_code(a: Float64[:], m: Float64[:, :]) -> Float64:
    v = m @ a
    return v[0] + a @ a
