"""NumPy's reductions along one axis (`axis=k`, negative from the end,
positional or by keyword) and running sums (`np.cumsum` over the
flattened array and along an axis), with NumPy's result dtypes and its
panics for an empty axis."""
import numpy as np
from postyp import Bool, Float32, Float64, Int16, Int32, Int64, UInt8, UInt64


def col_sums(a: Float64[:, :]) -> Float64[:]:
    return np.sum(a, axis=0)


def row_sums(a: Float64[:, :]) -> Float64[:]:
    return a.sum(axis=1)


def row_sums_i32(a: Int32[:, :]) -> Int64[:]:
    """The sum of Int32 is Int64, along an axis too."""
    return np.sum(a, axis=-1)


def col_prods(a: Int64[:, :]) -> Int64[:]:
    """The axis as the second positional argument."""
    return np.prod(a, 0)


def col_mins(a: Float64[:, :]) -> Float64[:]:
    return np.min(a, axis=0)


def row_maxs(a: Int16[:, :]) -> Int16[:]:
    return a.max(axis=1)


def col_argmins(a: Float64[:, :]) -> Int64[:]:
    return np.argmin(a, axis=0)


def row_argmaxs(a: Int32[:, :]) -> Int64[:]:
    return a.argmax(-1)


def col_means(a: Int32[:, :]) -> Float64[:]:
    """The mean of integers is Float64."""
    return np.mean(a, axis=0)


def row_means_f32(a: Float32[:, :]) -> Float32[:]:
    return a.mean(axis=1)


def rows_any(a: Float64[:, :]) -> Bool[:]:
    return np.any(a, axis=1)


def cols_all(a: Float64[:, :]) -> Bool[:]:
    return a.all(axis=0)


def middle_sums(a: Int64[:, :, :]) -> Int64[:, :]:
    return np.sum(a, axis=1)


def last_maxs(a: Float64[:, :, :]) -> Float64[:, :]:
    return np.max(a, axis=-1)


def first_argmins(a: Int64[:, :, :]) -> Int64[:, :]:
    return np.argmin(a, axis=-3)


def whole(a: Float64[:, :]) -> Float64:
    """`axis=None` reduces the whole array."""
    return np.sum(a, axis=None)


def col_averages(a: Float64[:, :]) -> Float64[:]:
    """A reduction along an axis inside an array expression."""
    return np.sum(a, axis=0) / a.shape[0] + 1.0


def widest_row(a: Int64[:, :]) -> Int64:
    """The index of the row with the largest sum, through a local."""
    s = a.sum(axis=1)
    best = 0
    for i in range(s.shape[0]):
        if s[i] > s[best]:
            best = i
    return best


def running(a: Int32[:]) -> Int64[:]:
    """The running sums of Int32 are Int64."""
    return np.cumsum(a)


def running_flat(a: Float64[:, :]) -> Float64[:]:
    """Over the flattened array, in C order."""
    return a.cumsum()


def running_count(a: Bool[:]) -> Int64[:]:
    return np.cumsum(a)


def running_bytes(a: UInt8[:, :]) -> UInt64[:]:
    return np.cumsum(a)


def running_down(a: Int64[:, :]) -> Int64[:, :]:
    return np.cumsum(a, axis=0)


def running_across(a: Float64[:, :]) -> Float64[:, :]:
    return a.cumsum(axis=-1)


def running_one_axis(a: Int64[:]) -> Int64[:]:
    return np.cumsum(a, 0)
