# error: the calls of `np.sort`, `a.sort()`, `np.argsort` and `np.partition` compiled code refuses (counts of arguments, what is not an array of real numbers of one axis, kinds NumPy does not name, `kth` not of integers) are the typecheck's: all reported, those in the blocks of refused statements too, with no echo of the calls they refuse
import numpy as np
from postyp import Complex128, Float64, Int64


def sorts(a: Float64[:], m: Float64[:, :], z: Complex128[:], x: Float64) -> Float64:
    b = np.sort(a, a)
    c = np.sort(m)
    d = np.sort(x)
    e = np.argsort(z)
    f = np.argsort(a, kind="fast")
    w = a.copy()
    w.sort(1)
    with open("f") as g:
        h = np.sort(m)
    return b[0] + c[0] + d + e[0] + f[0]


def partitions(a: Float64[:], m: Float64[:, :], x: Float64, k: Int64) -> Float64:
    b = np.partition(a)
    c = np.partition(m, 1)
    d = np.partition(a, 1.5)
    e = np.partition(a, a)
    f = np.partition(a, k)
    return b[0] + c[0] + d[0] + e[0] + f[0]

