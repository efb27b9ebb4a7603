"""Indexing with arrays: `a[idx]` of integer arrays (any rank, negative
indices wrapped), `a[mask]` of Bool arrays (of `a`'s shape or of its first
axes), and the assignments `a[idx] = v` and `a[mask] = v` of numbers and
broadcast arrays, over strided, reversed and empty inputs, with NumPy's
panics."""
import numpy as np
from postyp import Bool, Float64, Int32, Int64, Out, UInt8


def take(a: Float64[:], idx: Int64[:]) -> Float64[:]:
    """a[idx]: the elements at idx, negative ones from the end."""
    return a[idx]


def take_rows(m: Float64[:, :], idx: Int32[:]) -> Float64[:, :]:
    """m[idx] of a 2-D array: whole rows."""
    return m[idx]


def take_grid(a: Int64[:], idx: Int64[:, :]) -> Int64[:, :]:
    """a[idx] of a 2-D index: the index's shape."""
    return a[idx]


def sorted_by_argsort(a: Float64[:]) -> Float64[:]:
    """a[np.argsort(a)]: a sorted, as kernels write it."""
    return a[np.argsort(a)]


def positives(a: Float64[:]) -> Float64[:]:
    """a[a > 0.0]: a Bool mask of a's shape."""
    return a[a > 0.0]


def kept_rows(m: Int32[:, :], keep: Bool[:]) -> Int32[:, :]:
    """m[keep] of a mask of the first axis: the rows kept."""
    return m[keep]


def above_half(m: Float64[:, :]) -> Float64[:]:
    """m[m > 0.5] of a 2-D mask: the elements in C order."""
    return m[m > 0.5]


def clip_negative(a: Out[Float64[:]]) -> None:
    """a[a < 0.0] = 0.0."""
    a[a < 0.0] = 0.0


def put(a: Out[Float64[:]], idx: Int64[:], v: Float64[:]) -> None:
    """a[idx] = v: a repeated index keeps the last value."""
    a[idx] = v


def put_number(a: Out[Int32[:]], idx: UInt8[:]) -> None:
    """a[idx] = 7 of unsigned indices."""
    a[idx] = 7


def put_rows(m: Out[Float64[:, :]], idx: Int64[:], row: Float64[:]) -> None:
    """m[idx] = row: the row broadcast to every indexed row."""
    m[idx] = row


def put_masked(a: Out[Int64[:]], v: Int64[:]) -> None:
    """a[a % 2 == 0] = v: as many values as true elements."""
    a[a % 2 == 0] = v


def reverse_through_indices(a: Out[Int64[:]]) -> None:
    """a[idx] = a[::-1]: the value is read before any element is written."""
    idx = np.arange(len(a))
    a[idx] = a[::-1]


def masked_total(a: Float64[:], lo: Float64) -> Float64:
    """np.sum(a[a >= lo])."""
    return np.sum(a[a >= lo])


def category_means(x: Float64[:, :], cats: Int64[:], k: Int64) -> Float64[:, :]:
    """scanpy's regressor: `x.T[ix, mask]` gathers a row of the transpose
    where the mask holds, `r[mask, ix] = v` writes a column there."""
    r = np.zeros(x.shape)
    mask = cats == k
    for ix in range(x.shape[1]):
        r[mask, ix] = x.T[ix, mask].mean()
    return r


def picked(a: Int32[:, :, :], rows: Int64[:], i: Int64, j: Int64) -> Int64:
    """`a[i, rows, j]` of integers around an index array: `a[i, :, j][rows]`;
    then written back, doubled, through the same index."""
    got = a[i, rows, j]
    b = a.copy()
    b[i, rows, j] = got * 2
    return got.sum() * 1000 + b.sum()
