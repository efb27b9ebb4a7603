"""Whole-array arithmetic on slices, rows, columns and transposes (each
expression one fused loop reading the views in place), augmented
assignment to slices with NumPy's result when the right side overlaps the
target, slice assignment from array expressions and calls, array
parameters rebound to new arrays, local dtypes, and reductions over one
axis of a 1-D array, a tuple of axes and `keepdims=True`."""
import numpy as np
from postyp import Float32, Float64, Int8, Int32, Int64, Out


def head_energy(t: Float64[:], m: Int64) -> Float64:
    """The squared norm of the first `m` values."""
    return np.sum(t[:m] * t[:m])


def p_norm_profile(q: Float64[:], t: Float64[:], p: Float64, out: Out[Float64[:]]) -> None:
    """The p-norm distance of `q` to every window of `t`."""
    m = q.shape[0]
    for i in range(t.shape[0] - m + 1):
        out[i] = np.sum(np.power(np.abs(q - t[i : i + m]), p))


def window_energies(t: Float64[:], m: Int64, out: Out[Float64[:]]) -> None:
    """A sliding window: `np.sum(t[i:i+m] * t[i:i+m])` at every start."""
    for i in range(t.shape[0] - m + 1):
        out[i] = np.sum(t[i : i + m] * t[i : i + m])


def byte_total(a: Int8[:]) -> Int64:
    """The sum of a fused Int8 expression is Int64, as NumPy's: each
    element stays Int8, the sum does not."""
    return np.sum(a[::2] + a[1::2])


def single_total(x: Float32[:]) -> Float32:
    """The sum of a fused Float32 expression stays Float32."""
    return (x[1:] * 2.0).sum()


def cubes(x: Float64[:]) -> Float64[:]:
    """`**` of a view and a scalar."""
    return x[::-1] ** 3 - np.power(x, 2.0)


def row_twice(a: Float64[:, :], i: Int64) -> Float64[:]:
    """A row of a 2-D array, scaled."""
    return a[i] * 2.0


def column_gap(a: Float64[:, :], b: Float64[:, :]) -> Float64:
    """`(a[:, 0] - b[:, 0]).sum()`: a method of a fused expression."""
    return (a[:, 0] - b[:, 0]).sum()


def plus_transpose(a: Int64[:, :]) -> Int64[:, :]:
    """`a.T + a` of a square array: a symmetric result."""
    return a.T + a


def column_times_row(a: Int32[:, :]) -> Int32[:, :]:
    """A column as (n, 1) times a row as (1, n): broadcasting views."""
    return a[:, 0:1] * a[0:1, :]


def diffs(x: Float64[:]) -> Float64[:]:
    """Neighbouring differences, `x[1:] - x[:-1]`."""
    return x[1:] - x[:-1]


def stepped_mix(x: Int64[:]) -> Int64[:]:
    """Every other element against the others, reversed."""
    return x[::2] * 10 + x[1::2][::-1]


def mismatch(x: Float64[:], k: Int64) -> Float64[:]:
    """Views whose lengths differ panic with NumPy's message."""
    return x[k:] + x[:-1]


def bump_tail(a: Out[Float64[:]]) -> None:
    """`a[1:] += 1`: a scalar added to a slice."""
    a[1:] += 1


def scale_column(a: Out[Float64[:, :]], j: Int64) -> None:
    a[:, j] *= 2.0


def sub_range(a: Out[Float64[:]], lo: Int64, hi: Int64, b: Float64[:]) -> None:
    """`a[lo:hi] -= b`, `b` broadcast to the slice."""
    a[lo:hi] -= b


def shifted_add(a: Out[Int64[:]]) -> None:
    """`a[1:] += a[:-1]`: the right side overlaps the target; NumPy reads
    the old values."""
    a[1:] += a[:-1]


def reversed_add(a: Out[Int64[:]]) -> None:
    """`a += a[::-1]`: the whole array plus its own reversal."""
    a += a[::-1]


def local_view_add(a: Out[Int64[:]]) -> None:
    """`b = a[::-1]` then `a += b`: a local that is a view of the target
    is read from a copy too."""
    b = a[::-1]
    a += b


def rows_minus_first(a: Out[Float64[:, :]]) -> None:
    """Every row but the first minus the first row (a view of `a`)."""
    a[1:] -= a[0]


def add_mismatch(a: Out[Float64[:]], b: Float64[:]) -> None:
    """A right side of another length panics with NumPy's message."""
    a[1:] += b


def running_after_first(s: Out[Float64[:]], y: Float64[:]) -> None:
    """`s[1:] = np.cumsum(y)`: a call's array assigned to a slice."""
    s[0] = 0.0
    s[1:] = np.cumsum(y)


def rows_scaled(a: Float64[:, :], out: Out[Float64[:, :]]) -> None:
    """`out[i, :] = a[i] * 2.0` for every row."""
    for i in range(a.shape[0]):
        out[i, :] = a[i] * 2.0


def rebound(y: Float64[:]) -> Float64[:]:
    """A parameter rebound to new arrays of its type."""
    y = np.cumsum(y)
    y = y * 2.0
    return y


def rebound_in_loop(y: Float64[:], n: Int64) -> Float64[:]:
    """Rebound inside a loop: each round reads the last binding."""
    for _ in range(n):
        y = y[1:] + y[:-1]
    return y


def indices(n: Int64) -> Int64[:]:
    """`dtype = np.int_` then `np.empty(n, dtype=dtype)`, through a second
    local bound to the first."""
    dtype = np.int_
    kind = dtype
    out = np.empty(n, dtype=kind)
    for i in range(n):
        out[i] = i * i
    return out


def aliases(n: Int64) -> Float64:
    """NumPy's other names of dtypes."""
    a = np.zeros(n, dtype=np.double)
    b = np.ones(n, dtype=np.intp)
    c = np.ones(n, dtype=np.single)
    d = np.zeros(n, dtype=np.bool_)
    e = np.ones(n, dtype=np.longlong)
    f = np.ones(n, np.uintp)
    return np.sum(a) + np.sum(b) + np.sum(c.astype(np.float64)) + np.sum(d) + np.sum(e) + np.sum(f.astype(np.double))


def total_1d(x: Float64[:]) -> Float64:
    """`axis=0` and `axis=-1` of a 1-D array are scalars."""
    return np.sum(x, axis=0) + x.max(axis=-1)


def total_2d(a: Int64[:, :]) -> Int64:
    """A tuple of every axis reduces to a scalar."""
    return np.sum(a, axis=(0, 1)) + a.min(axis=(1, 0))


def col_sums_kept(a: Float64[:, :]) -> Float64[:, :]:
    """`keepdims=True` keeps the reduced axis with extent 1."""
    return np.sum(a, axis=0, keepdims=True)


def centred_rows(a: Float64[:, :]) -> Float64[:, :]:
    """Each row minus its mean: `keepdims` broadcasts back."""
    return a - a.mean(axis=1, keepdims=True)


def all_kept(a: Int64[:, :]) -> Int64[:, :]:
    return a.max(keepdims=True)
