# error: the calls of `np.concatenate`, `np.diff`, `np.unique`, `np.flatnonzero` and `np.where` of one argument compiled code refuses (keywords they do not take, axes other than 0, orders other than 1, other than a tuple of arrays, counts of arguments, arrays not of numbers or of other axes, arrays of no common dtype) are the typecheck's: all reported, those in the blocks of refused statements too, with no echo of the calls they refuse
import numpy as np
from postyp import Complex128, Float64, Int64


def joins(a: Float64[:], m: Float64[:, :], s: str, x: Float64, k: Int64) -> Float64:
    b = np.concatenate((a, a), axis=1)
    c = np.concatenate(a, a)
    d = np.concatenate((a, m))
    f = np.concatenate((a, a), out=a)
    g = np.concatenate((a, a), axis=k)
    with open("f") as w:
        n = np.concatenate([m])
    return b[0] + c[0] + d[0] + f[0] + g[0]


def diffs(a: Float64[:], m: Float64[:, :], z: Complex128[:], x: Float64) -> Float64:
    b = np.diff(a, 2)
    c = np.diff(a, 1, 0)
    d = np.diff(m)
    f = np.diff(a, prepend=0.0)
    g = np.unique(a, a)
    h = np.unique(m)
    i = np.unique(z)
    j = np.flatnonzero()
    p = np.flatnonzero(z)
    q = np.where(m)
    r = np.where(x)
    t = np.where(z)
    return b[0] + c[0] + d[0] + f[0] + g[0] + h[0] + i[0] + j[0] + p[0] + q[0][0] + r[0][0] + t[0][0]
