# error: the errors of indexing and slicing arrays read as values (indices that are not integers, too many, arrays as indices of the wrong dtype or of an array of no axes, a zero step, a scalar indexed) are the typecheck's errors, each once, with no echo where the refused values are read
import numpy as np
from postyp import Bool, Float64, Int64


def elements(a: Float64[:, :], x: Float64, i: Int64) -> Float64:
    p = a[i, x]
    q = a[i, i, i]
    r = x[0]
    s = a[(i, i), i]
    a[i, x] = 1.0
    return p + q + r + s + a[1.5, i]


def views(a: Float64[:, :], x: Float64, i: Int64) -> Float64:
    u = a[x:, i]
    v = a[::0]
    w = a[..., i, ...]
    y = a[i, :, i]
    z = a[:x:0, 1.5]
    return u[0] + v[0, 0] + w[0] + y[0] + z[0]


def gathers(a: Float64[:], b: Float64[:, :], m: Bool[:, :, :], idx: Int64[:]) -> Float64:
    c = a[b]
    h = b[idx, :]
    d = a[a > 0.0][0]
    e = b[m]
    k = np.sum(a)
    g = c[0] + e[0]
    return g + d + h[0]

