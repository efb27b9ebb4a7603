# error: the calls of `np.linalg.det`, `np.linalg.eigh`, `np.linalg.eigvalsh` and `np.cross` compiled code refuses (counts of arguments, `UPLO` given twice, not a constant or not 'L' or 'U', what is not a 2-D array of numbers `linalg` takes, lists not of numbers, vectors not of one axis or of Bools) are the typecheck's: all reported, those in the blocks of refused statements too, with no echo of the calls they refuse
import numpy as np
from postyp import Bool, Complex128, Float16, Float64, Int64


def dets(a: Float64[:], m: Float64[:, :], h: Float16[:, :], z: Complex128[:, :], x: Float64) -> Float64:
    b = np.linalg.det(m, m)
    c = np.linalg.det(a)
    d = np.linalg.det(h)
    e = np.linalg.det(z)
    f = np.linalg.det(x)
    with open("f") as g:
        n = np.linalg.det(a)
    return b + c + d + e + f


def eighs(a: Float64[:], m: Float64[:, :], s: str) -> Float64:
    w, v = np.linalg.eigh(m, "L", UPLO="U")
    p = np.linalg.eigvalsh(m, "X")
    q = np.linalg.eigvalsh(m, UPLO=s)
    r = np.linalg.eigvalsh()
    t = np.linalg.eigvalsh(a)
    return w[0] + p[0] + q[0] + r[0] + t[0]


def crosses(a: Float64[:], m: Float64[:, :], k: Bool[:], x: Float64) -> Float64:
    b = np.cross(a)
    c = np.cross(a, m)
    d = np.cross(k, a)
    e = np.cross([1.0, a, 2.0], a)
    f = np.cross(x, a)
    g = np.cross(a, [1.0, 2.0, 3.0])
    return b[0] + c[0] + d[0] + e[0] + f[0] + g[0]
