"""NumPy's arrays made and reduced in compiled code: np.empty, np.zeros,
np.ones, np.full and their *_like forms, np.arange, copies, and the
whole-array reductions, with NumPy's result dtypes."""
import numpy as np
from postyp import Bool, Complex128, Float16, Float32, Float64, Int8, Int32, Int64, Out, UInt8


def squares(n: Int64) -> Float64[:]:
    """A fresh 1-D array, returned."""
    out = np.empty(n)
    for i in range(n):
        out[i] = float(i * i)
    return out


def table(n: Int64, m: Int64) -> Int32[:, :]:
    """A 2-D array with a dtype keyword, returned."""
    t = np.zeros((n, m), dtype=np.int32)
    for i in range(n):
        for j in range(m):
            t[i, j] = Int32(i * m + j)
    return t


def cube_sum(n: Int64) -> Int64:
    """A 3-D array of ones, summed."""
    c = np.ones((n, n + 1, 2), np.int64)
    return np.sum(c)


def filled(n: Int64, v: Float32) -> Float32[:]:
    """np.full takes the fill value's dtype (a NumPy Float32 here)."""
    return np.full(n, v)


def full_int(n: Int64) -> Int64[:]:
    """A Python int fills Int64."""
    return np.full((n,), 7)


def like(a: Float64[:, :]) -> Float64[:, :]:
    """*_like keep the shape; a copy keeps the values."""
    z = np.zeros_like(a)
    o = np.ones_like(a)
    f = np.full_like(a, 0.5)
    e = np.empty_like(a)
    c = a.copy()
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            e[i, j] = z[i, j] + o[i, j] + f[i, j] + c[i, j]
    return e


def like_dtype(a: Float64[:]) -> Int8[:]:
    """A dtype given to a *_like function."""
    r = np.zeros_like(a, dtype=np.int8)
    for i in range(len(a)):
        r[i] = Int8(a[i] > 0.0)
    return r


def ranges(n: Int64) -> Int64:
    """np.arange with one, two and three integer arguments."""
    a = np.arange(n)
    b = np.arange(2, n)
    c = np.arange(n, 0, -3)
    return np.sum(a) * 10000 + np.sum(b) * 100 + np.sum(c)


def float_range(start: Float64, stop: Float64, step: Float64) -> Float64[:]:
    """np.arange of floats: ceil((stop - start) / step) elements."""
    return np.arange(start, stop, step)


def range_f32(n: Int64) -> Float32[:]:
    """np.arange with a dtype."""
    return np.arange(n, dtype=np.float32)


def rebound(n: Int64, big: Bool) -> Float64:
    """An array bound in both branches and again in a loop."""
    if big:
        buf = np.zeros(2 * n)
    else:
        buf = np.ones(n)
    total = 0.0
    for k in range(3):
        buf = np.full(n + k, float(k))
        total += buf.sum()
    return total + len(buf)


def alias_then_rebind(n: Int64, flip: Bool) -> Float64:
    """A name bound to an array keeps it when the name it came from is
    bound again, directly or through a tuple."""
    cur = np.zeros(n)
    for k in range(2):
        cur = np.full(n, float(k + 1))
    kept = cur
    pair = (cur, 1.0)
    if flip:
        cur = np.ones(n) * 10.0
    else:
        cur = np.ones(n) * 100.0
    first = pair[0]
    return kept[0] + first[n - 1] + cur[0]


def fill_rows(n: Int64, m: Int64) -> Float64[:, :]:
    """A shape from another array's shape, passed to a function."""
    src = np.ones((n, m))
    dst = np.empty(src.shape)
    scale_into(src, dst, 3.0)
    return dst


def scale_into(a: Float64[:, :], out: Out[Float64[:, :]], s: Float64) -> None:
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            out[i, j] = a[i, j] * s


def sum_i32(a: Int32[:]) -> Int64:
    """The sum of Int32 is Int64."""
    return np.sum(a)


def sum_bool(a: Bool[:]) -> Int64:
    """The sum of Bool counts the True elements."""
    return a.sum()


def sum_u8(a: UInt8[:, :]) -> Int64:
    return Int64(np.sum(a))


def sum_f32(a: Float32[:]) -> Float32:
    return np.sum(a)


def sum_f64_2d(a: Float64[:, :]) -> Float64:
    return a.sum()


def prod_i64(a: Int64[:]) -> Int64:
    return np.prod(a)


def mean_i32(a: Int32[:]) -> Float64:
    """The mean of integers is Float64."""
    return np.mean(a)


def mean_f64(a: Float64[:, :]) -> Float64:
    return a.mean()


def mean_f32(a: Float32[:]) -> Float32:
    return np.mean(a)


def min_f64(a: Float64[:]) -> Float64:
    return np.min(a)


def max_f64(a: Float64[:, :]) -> Float64:
    return a.max()


def min_i8(a: Int8[:]) -> Int8:
    return a.min()


def max_bool(a: Bool[:]) -> Bool:
    return np.max(a)


def argmin_f64(a: Float64[:]) -> Int64:
    return np.argmin(a)


def argmax_2d(a: Float64[:, :]) -> Int64:
    """The index into the flattened array, C order."""
    return a.argmax()


def argmax_i32(a: Int32[:]) -> Int64:
    return np.argmax(a)


def any_all(a: Float64[:]) -> Int64:
    r = 0
    if np.any(a):
        r += 1
    if np.all(a):
        r += 2
    if a.any():
        r += 4
    if a.all():
        r += 8
    return r


def any_bool_2d(a: Bool[:, :]) -> Bool:
    return np.any(a)


def sum_complex(a: Complex128[:]) -> Complex128:
    return np.sum(a)


def half_mean(n: Int64) -> Float16:
    """Float16 reductions accumulate in Float32, as NumPy does."""
    h = np.full(n, Float16(0.1))
    return np.mean(h)


def size_ndim(a: Float64[:, :]) -> Int64:
    return a.size * 10 + a.ndim + len(a) * 100


def by_keyword(n: Int64, v: Float32) -> Float64:
    """`shape=` and `fill_value=` by keyword, as cooltools writes
    `np.empty(shape=(0, 0), dtype=np.bool_)`."""
    none = np.empty(shape=(0, 0), dtype=np.bool_)
    z = np.zeros(shape=(n, 2))
    f = np.full(shape=n, fill_value=v)
    g = np.full(n, fill_value=2, dtype=np.float32)
    return none.size + z.sum() + f.sum() + g.sum() + np.ones(shape=3, dtype=np.int8).sum()
