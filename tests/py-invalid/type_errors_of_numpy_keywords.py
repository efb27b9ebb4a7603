# error: the keywords and `*` arguments NumPy's functions of arrays do not take in compiled code (np.sort, np.argsort, np.searchsorted, np.linalg.norm, np.array, np.linspace, np.roll, the NaN-skipping reductions, ...) are the typecheck's: all reported, with no echo of the calls they refuse
import numpy as np
from postyp import Float64, Int64


def keywords(a: Float64[:], m: Float64[:, :], x: Float64) -> Float64:
    b = np.sort(a, kind="stable")
    c = np.argsort(a, order=None)
    d = np.searchsorted(a, x, sorted=True)
    e = np.linalg.norm(a, axis=0)
    f = np.array([1.0, x], copy=False)
    g = np.linspace(0.0, 1.0, 5, retstep=False)
    h = np.roll(a, 1, mode=0)
    k = np.nanmean(a, axis=0)
    n = np.var(a, axis=0)
    p = a.std(ddof=1, axis=0)
    q = np.outer(a, a, out=m)
    r = np.linalg.det(m, check=True)
    s = np.cross(a, a, axis=0)
    t = np.linalg.eigh(m, uplo="L")
    u = np.partition(a, 2, kind="introselect")
    v = np.nansum(a, dtype=np.float32)
    w = np.sort(*(a,))
    y = np.zeros(*(3,))
    return x
