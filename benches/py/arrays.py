"""Arrays inside kernels, for scripts/bench-arrays: a reduction with
`np.sum`, a loop over the rows of a 2-D array through one view per row
(summed by a function of our own and by `r.sum()`),
a per-call temporary array, and a sliding window of whole-array
arithmetic on slices. The same source runs under postc, Numba and
CPython."""
import numpy as np
from postyp import Float64


def total(x: Float64[:]) -> Float64:
    return np.sum(x)


def row_sum(r: Float64[:]) -> Float64:
    s = 0.0
    for j in range(len(r)):
        s += r[j]
    return s


def sum_rows(a: Float64[:, :]) -> Float64:
    s = 0.0
    for i in range(a.shape[0]):
        s += row_sum(a[i])
    return s


def row_views(a: Float64[:, :]) -> Float64:
    """The row loop with NumPy's own row sum: `r.sum()` of each row's
    view."""
    s = 0.0
    for i in range(a.shape[0]):
        r = a[i]
        s += r.sum()
    return s


def temporary(x: Float64[:]) -> Float64:
    t = np.empty(len(x))
    for i in range(len(x)):
        t[i] = x[i] * x[i]
    s = 0.0
    for i in range(len(t)):
        s += t[i]
    return s


def windows(x: Float64[:]) -> Float64:
    """`np.sum(x[i:i+m] * x[i:i+m])` at every start: STUMPY's sliding
    window, a fused expression of two views per step."""
    m = 32
    s = 0.0
    for i in range(len(x) - m + 1):
        s += np.sum(x[i : i + m] * x[i : i + m])
    return s
