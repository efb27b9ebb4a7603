# error: the calls of `np.trace`, `a.trace()`, `np.eye` and `np.identity` compiled code refuses (keywords they do not take, arguments given twice or too many, no array or number of rows, arrays not of numbers or of other axes, offsets, extents and diagonals that are not integers, dtypes refused) are the typecheck's: all reported, those in the blocks of refused statements too, with no echo of the calls they refuse
import numpy as np
from postyp import Complex128, Float64, Int64


def traces(a: Float64[:], m: Float64[:, :], x: Float64) -> Float64:
    b = np.trace(m, 1, 2)
    c = np.trace(m, 0, offset=1)
    d = np.trace(m, axis1=0)
    e = np.trace(a)
    f = np.trace(m, 1.5)
    g = m.trace(x)
    h = np.trace(offset=1)
    with open("f") as w:
        n = np.trace(a)
    return b + c + d + e + f + g + h


def eyes(n: Int64, x: Float64) -> Float64:
    b = np.eye()
    c = np.eye(x)
    d = np.eye(n, x)
    e = np.eye(n, k=x)
    f = np.eye(n, dtype=np.float)
    g = np.identity(n, np.str_)
    h = np.identity(n, dtype=np.int32, like=n)
    return b[0, 0] + c[0, 0] + d[0, 0] + e[0, 0] + f[0, 0] + g[0, 0] + h[0, 0]

