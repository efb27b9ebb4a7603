"""Whole-array expressions, each lowered as one fused loop: arithmetic and
comparisons with NumPy's broadcasting and NEP 50 dtypes, NumPy's ufuncs on
arrays, np.where, np.clip, np.minimum, in-place operators, and results
bound, reduced, returned and passed on."""
import numpy as np
from postyp import Bool, Float32, Float64, Int8, Int32, Int64, Out


def axpy(x: Float64[:], y: Float64[:]) -> Float64[:]:
    """A scalar broadcast over two arrays: one loop, one result."""
    return 2.0 * x + y


def ops(a: Float64[:], b: Float64[:]) -> Float64[:]:
    """Every arithmetic operator and unary minus in one tree."""
    return -a + a * b - a / (b + 10.0) + (a // 3.0) + a % 4.0 + a ** 2


def int_ops(a: Int64[:], b: Int64[:]) -> Int64[:]:
    """Integer arithmetic and bit operators stay Int64."""
    return (a + b) * 3 - (a & b) + (a | 1) + (b ^ a) + (a << 2) + (-b)


def mixed(a: Int32[:], b: Float32[:]) -> Float64[:]:
    """Int32 meets Float32 at Float64, as NumPy promotes."""
    return a + b


def small_ints(a: Int8[:]) -> Int8[:]:
    """A Python int takes the array's Int8 (NEP 50)."""
    return a * 2 + 1


def true_div(a: Int32[:], b: Int32[:]) -> Float64[:]:
    """`/` of integer arrays is Float64."""
    return a / b


def rows_plus_row(m: Float64[:, :], r: Float64[:]) -> Float64[:, :]:
    """A 1-D row broadcast against every row of a 2-D array."""
    return m - r


def outer(c: Float64[:, :], r: Float64[:, :]) -> Float64[:, :]:
    """Extent-1 axes on both sides: (n, 1) with (1, m) is (n, m)."""
    return c * r


def less(a: Float64[:], b: Float64[:]) -> Bool[:]:
    """A comparison gives a Bool array."""
    return a < b


def compares(a: Int64[:], t: Int64) -> Int64:
    """Comparisons with a scalar, counted through sum."""
    return (a == t).sum() + (a != t).sum() * 10 + (a >= t).sum() * 100 + (a > t).sum() * 1000


def bool_ops(p: Bool[:], q: Bool[:]) -> Bool[:]:
    """Bool arrays: `+` is or, `*` is and, `&`, `|`, `^` and `~`."""
    return (p + q) & ~(p * q) | (p ^ q)


def ufuncs(a: Float64[:]) -> Float64[:]:
    """NumPy's float functions on a whole array."""
    return np.sqrt(np.abs(a)) + np.exp(-a * a) + np.log(1.0 + np.abs(a)) + np.floor(a)


def ufunc_f32(a: Float32[:]) -> Float32[:]:
    """A float function keeps Float32."""
    return np.sqrt(a) * 2.0


def int_abs(a: Int32[:]) -> Int32[:]:
    """np.abs of integers stays an integer."""
    return np.abs(a)


def min_max(a: Float64[:], b: Float64[:]) -> Float64[:]:
    """np.minimum and np.maximum propagate NaN."""
    return np.minimum(a, b) + np.maximum(a, 0.0)


def where(a: Float64[:], b: Float64[:]) -> Float64[:]:
    """np.where with a Bool array, broadcasting a scalar."""
    return np.where(a > b, a, -1.0)


def where_ints(a: Int32[:]) -> Int64[:]:
    """Two Python ints chosen: Int64, as NumPy gives."""
    return np.where(a > 0, 1, 2)


def clip(a: Float64[:]) -> Float64[:]:
    """np.clip to [lo, hi], NaN staying NaN."""
    return np.clip(a, -1.0, 1.5)


def clip_int(a: Int32[:, :], hi: Int32[:]) -> Int32[:, :]:
    """np.clip with an array bound broadcast over rows."""
    return np.clip(a, 0, hi)


def in_place(a: Out[Float64[:, :]], r: Float64[:]) -> None:
    """`+=` `-=` `*=` `/=` on a whole array, broadcasting the right side."""
    a += r
    a *= 2.0
    a -= 1.0
    a /= 4.0


def in_place_int(n: Int64) -> Int32[:]:
    """In-place on a fresh Int32 array: a Python int keeps Int32."""
    a = np.arange(n, dtype=np.int32)
    a *= 3
    a += a
    return a


def bound_and_reduced(a: Float64[:], b: Float64[:]) -> Float64:
    """A result bound to a local, reduced, and an expression reduced."""
    d = a - b
    return (d * d).sum() + np.max(np.abs(a - b))


def norm2(v: Float64[:]) -> Float64:
    return np.sum(v * v)


def passed_on(a: Float64[:], b: Float64[:]) -> Float64:
    """A result passed to a POST function."""
    return norm2(a + b)


def mismatch(a: Float64[:], b: Float64[:]) -> Float64[:]:
    """Shapes that do not broadcast panic with NumPy's message."""
    return a + b


def mismatch_2d(a: Float64[:, :], b: Float64[:, :], c: Float64[:]) -> Float64[:, :]:
    """The failing operator's operands are the ones named."""
    return a + b * c



def in_place_mismatch(a: Out[Float64[:]], b: Float64[:]) -> None:
    """A right side that stretches the target cannot be written in place."""
    a += b
