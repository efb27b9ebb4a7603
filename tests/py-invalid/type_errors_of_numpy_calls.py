# error: the calls of NumPy's array functions and array methods that compiled code refuses whatever their arguments' values (keywords, counts, a dtype or an axis given twice) are the typecheck's: all reported, with no echo of the calls they refuse
import numpy as np
from postyp import Float64, Int64


def creations(n: Int64, x: Float64) -> Float64:
    a = np.zeros(n, np.float64, 3)
    b = np.ones(n, np.int64, dtype=np.int64)
    c = np.full(n)
    d = np.empty(n, order="C")
    e = np.arange()
    f = np.arange(1, 2, 3, 4)
    g = np.zeros(n, **{})
    return x + a[0] * 2.0


def methods(a: Float64[:, :], n: Int64) -> Float64:
    b = a.astype()
    c = a.copy(order="F")
    d = a.sum(0, axis=1)
    e = a.sum(keepdims=1)
    f = np.max(a, 0, 1)
    g = a.ravel(1)
    h = np.zeros_like(a, np.float32, dtype=np.float32)
    k = np.cumsum(a, out=a)
    m = a.mean(where=a > 0)
    return a[0, 0] + b[0, 0]
