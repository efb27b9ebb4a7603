"""NumPy's basic slicing in compiled code: rows, columns, ranges with
negative, omitted and stepped bounds, None and ..., transposes. Each is a
view that shares its base's memory: read, written through, passed on and
returned."""
import numpy as np
from postyp import Float64, Int32, Int64, Out


def row_total(a: Int64[:, :], i: Int64) -> Int64:
    """a[i] of a 2-D array: a row view, reduced."""
    r = a[i]
    return r.sum()


def column_weighted(a: Float64[:, :], j: Int64) -> Float64:
    """a[:, j]: a column, walked in order."""
    s = 0.0
    k = 1.0
    for x in a[:, j]:
        s += x * k
        k += 1.0
    return s


def slice_weighted(a: Int64[:], lo: Int64, hi: Int64, st: Int64) -> Int64:
    """a[lo:hi:st] with any bounds and step: the order of its elements."""
    t = 0
    w = 1
    for x in a[lo:hi:st]:
        t += x * w
        w += 1
    return t


def slice_len(a: Int64[:], lo: Int64, hi: Int64, st: Int64) -> Int64:
    """len() of a slice; empty when the bounds cross."""
    return len(a[lo:hi:st])


def head_tail(a: Int64[:], k: Int64) -> Int64:
    """Omitted bounds: a[:k] and a[k:] cover a, a[-k:] is its end."""
    return a[:k].sum() * 1000000 + a[k:].sum() * 1000 + a[-k:].sum()


def reversed_view(a: Int64[:]) -> Int64[:]:
    """a[::-1], returned."""
    return a[::-1]


def stepped(a: Float64[:], lo: Int64, hi: Int64, st: Int64) -> Float64[:]:
    """a[lo:hi:st], returned."""
    return a[lo:hi:st]


def row(a: Float64[:, :], i: Int64) -> Float64[:]:
    """A row, returned."""
    return a[i]


def column(a: Float64[:, :], j: Int64) -> Float64[:]:
    """A column, returned."""
    return a[:, j]


def block(a: Int64[:, :], r0: Int64, r1: Int64, c0: Int64, c1: Int64) -> Int64[:, :]:
    """A 2-D block a[r0:r1, c0:c1]."""
    return a[r0:r1, c0:c1]


def flipped(a: Int64[:, :]) -> Int64[:, :]:
    """Both axes reversed, the second every other element."""
    return a[::-1, ::-2]


def transposed(a: Int32[:, :]) -> Int32[:, :]:
    """a.T."""
    return a.T


def transposed_call(a: Int32[:, :]) -> Int32[:, :]:
    """a.transpose() of a column block."""
    return a[:, 1:].transpose()


def as_row(a: Float64[:]) -> Float64[:, :]:
    """a[None, :]: a new axis of extent 1."""
    return a[None, :]


def as_column(a: Float64[:]) -> Float64[:, :]:
    """a[:, None]."""
    return a[:, None]


def last_plane(a: Int64[:, :, :], k: Int64) -> Int64[:, :]:
    """a[..., k] of a 3-D array."""
    return a[..., k]


def middle(a: Int64[:, :, :], i: Int64) -> Int64[:]:
    """a[i, 1:, -1]: integers and slices mixed."""
    return a[i, 1:, -1]


def shape_of_block(a: Int64[:, :], r0: Int64, c0: Int64) -> Int64:
    """.shape and .ndim of a view."""
    b = a[r0:, c0::2]
    return b.shape[0] * 100 + b.shape[1] * 10 + b.ndim


def dot(x: Float64[:], y: Float64[:]) -> Float64:
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


def matvec(a: Float64[:, :], x: Float64[:], out: Out[Float64[:]]) -> None:
    """Rows passed to another function."""
    for i in range(a.shape[0]):
        out[i] = dot(a[i], x)


def scale_row(a: Out[Float64[:, :]], i: Int64, f: Float64) -> None:
    """Writes through a row land in the base."""
    r = a[i]
    for k in range(len(r)):
        r[k] = r[k] * f


def fill_column(a: Out[Int64[:, :]], j: Int64, v: Int64) -> None:
    """Writes through a column."""
    c = a[:, j]
    for k in range(c.shape[0]):
        c[k] = v + k


def reverse_in_place(a: Out[Int64[:]]) -> None:
    """Swaps through a reversed view."""
    r = a[::-1]
    for k in range(len(a) // 2):
        a[k], r[k] = r[k], a[k]


def set_transposed(a: Out[Int32[:, :]], j: Int64, i: Int64, v: Int32) -> None:
    """t[j, i] of t = a.T writes a[i, j]."""
    t = a.T
    t[j, i] = v


def clear_column(a: Out[Float64[:, :]], j: Int64, v: Float64) -> None:
    """A number assigned to a column fills it."""
    a[:, j] = v


def shift_right(a: Out[Int64[:]]) -> None:
    """a[1:] = a[:-1]: the operands overlap, and NumPy copies first."""
    a[1:] = a[:-1]


def shift_left(a: Out[Int64[:]]) -> None:
    """a[:-1] = a[1:]."""
    a[:-1] = a[1:]


def put_range(a: Out[Float64[:]], b: Float64[:], lo: Int64) -> None:
    """An array into a range of the same length, or NumPy's ValueError."""
    a[lo:lo + 3] = b


def put_rows(a: Out[Float64[:, :]], row: Float64[:]) -> None:
    """A 1-D array broadcast to every row of a 2-D block."""
    a[1:, :] = row


def swap_halves(a: Out[Int32[:, :]]) -> None:
    """Rows swapped through copies of the two halves."""
    h = a.shape[0] // 2
    top = a[:h].copy()
    a[:h] = a[h:2 * h]
    a[h:2 * h] = top


def row_maxima(a: Float64[:, :], out: Out[Float64[:]]) -> None:
    """for row in a: a view per row."""
    i = 0
    for row in a:
        out[i] = row.max()
        i += 1


def scale_rows(a: Out[Float64[:, :]]) -> None:
    """Rows of enumerate(a), written through."""
    for i, row in enumerate(a):
        for j in range(len(row)):
            row[j] = row[j] * (i + 1)


def plane_corners(a: Int64[:, :, :]) -> Int64:
    """for plane in a over a 3-D array: 2-D views."""
    t = 0
    for plane in a:
        t = t * 10 + plane[0, 0] + plane[-1, -1]
    return t


def row_dots(a: Float64[:, :], b: Float64[:, :], out: Out[Float64[:]]) -> None:
    """zip over the rows of two arrays."""
    k = 0
    for x, y in zip(a, b):
        out[k] = dot(x, y)
        k += 1


def raveled(a: Int64[:, :]) -> Int64[:]:
    """a.ravel(): C order, a view or a copy."""
    return a.ravel()


def ravel_write(a: Out[Int64[:, :]]) -> Int64:
    """Writes through a.ravel() land in a exactly when it is a view (a is
    C-contiguous), as in NumPy."""
    r = a.ravel()
    for k in range(len(r)):
        r[k] = k * 10
    return r.sum()


def ravel_write3(a: Out[Int64[:, :, :]]) -> Int64:
    """The same on a 3-D array."""
    r = a.ravel()
    for k in range(len(r)):
        r[k] = -k
    return r[len(r) - 1]


def row_self_dots(a: Float64[:, :]) -> Float64:
    """A view per row and a view of it, passed to a function that cannot
    return them (built in the caller's frame)."""
    s = 0.0
    for i in range(a.shape[0]):
        s += dot(a[i], a[i][::-1])
    return s


def tail_of(r: Float64[:]) -> Float64[:]:
    return r[1:]


def tails_first(a: Float64[:, :]) -> Float64:
    """Rows passed to a function that returns a view of them (each stays in
    the arena until the call returns)."""
    s = 0.0
    for i in range(a.shape[0]):
        t = tail_of(a[i])
        s += t[0] * (i + 1)
    return s


def scratch_halves(n: Int64) -> Float64:
    """Views of a scratch array, passed on."""
    t = np.empty(n)
    for i in range(n):
        t[i] = i * 0.5
    return dot(t[: n // 2], t[n // 2 :])


def scaled_and_count(x: Float64) -> tuple[Float64, Int64]:
    return x * 2.0, Int64(3)


def tuple_into_rows(n: Int64, k: Int64) -> Float64[:, :]:
    """A tuple of numbers assigned to a slice is the 1-D array NumPy makes
    of it: stored element by element, broadcast, or a shape mismatch."""
    out = np.zeros((n, 4))
    for i in range(n):
        out[i, 1:3] = scaled_and_count(i * 1.5)
        out[i, 3:] = (7,)
    out[:, 0:k] = (-1.0, 0.5)
    return out


def tuple_into_ints(a: Out[Int32[:]]) -> Int64:
    """Floats of a tuple stored into Int32 are truncated, as NumPy's
    assignment casts."""
    a[0:3] = (1.9, -2.7, 3)
    return Int64(a[0]) + Int64(a[1]) + Int64(a[2])
