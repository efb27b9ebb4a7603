"""NumPy's pairwise summation of floats: `np.sum`, `a.sum()` and
`np.mean` of Float64, Float32 and Float16 give NumPy's bits, not only
its value, for runs below 8, up to 128 (eight accumulators) and longer
(split in halves), through views with other strides, whole 2-D arrays
in C and Fortran order and along the axis with the smallest stride."""
import numpy as np
from postyp import Float16, Float32, Float64


def total(x: Float64[:]) -> Float64:
    return np.sum(x)


def total_f32(x: Float32[:]) -> Float32:
    return x.sum()


def total_f16(x: Float16[:]) -> Float16:
    return np.sum(x)


def average(x: Float64[:]) -> Float64:
    return np.mean(x)


def average_f32(x: Float32[:]) -> Float32:
    return x.mean()


def total_2d(a: Float64[:, :]) -> Float64:
    return a.sum()


def row_totals(a: Float64[:, :]) -> Float64[:]:
    return np.sum(a, axis=1)


def col_totals(a: Float32[:, :]) -> Float32[:]:
    return a.sum(axis=0)


def rows_one_by_one(a: Float64[:, :]) -> Float64:
    """A sum per row view, added in order: the loop of a kernel."""
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i].sum()
    return s


def rows_bound(a: Float64[:, :]) -> Float64:
    """Each row bound to a local in the loop, read after: its sum and its
    last element."""
    s = 0.0
    for i in range(a.shape[0]):
        r = a[i]
        s += r.sum() * 0.5 + r[len(r) - 1]
    return s
