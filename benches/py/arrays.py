"""Arrays inside kernels, for scripts/bench-arrays: a reduction with
`np.sum`, a loop over the rows of a 2-D array through one view per row,
and a per-call temporary array. The same source runs under postc, Numba
and CPython."""
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


def temporary(x: Float64[:]) -> Float64:
    t = np.empty(len(x))
    for i in range(len(x)):
        t[i] = x[i] * x[i]
    s = 0.0
    for i in range(len(t)):
        s += t[i]
    return s
