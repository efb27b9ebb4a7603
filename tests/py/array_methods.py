"""Array methods in compiled code: `a.reshape` and `np.reshape` (a view of
a C-contiguous array, a copy of any other, as NumPy makes), `a.flatten()`
(always a copy) and `a.astype(dtype)` (a new array, each element
converted), over C-order, Fortran-order, transposed, strided and empty
inputs."""
import numpy as np
from postyp import Bool, Complex128, Float32, Float64, Int16, Int32, Int64


def reshaped(a: Int64[:], m: Int64, n: Int64) -> Int64[:, :]:
    """a.reshape(m, n), returned; a size mismatch panics."""
    return a.reshape(m, n)


def reshaped_tuple(a: Float64[:, :], m: Int64) -> Float64[:, :]:
    """a.reshape((m, -1)): the unknown extent is the size over m."""
    return a.reshape((m, -1))


def as_length(a: Float64[:, :], n: Int64) -> Float64[:]:
    """a.reshape(n) into one axis."""
    return a.reshape(n)


def flat_of(a: Int64[:, :]) -> Int64[:]:
    """np.reshape(a, -1): every element in C order."""
    return np.reshape(a, -1)


def blocks(a: Int32[:, :], k: Int64) -> Int32[:, :, :]:
    """np.reshape(a, [k, -1, 2]) into three axes."""
    return np.reshape(a, [k, -1, 2])


def two_unknowns(a: Float64[:], m: Int64) -> Float64[:, :, :]:
    """Two unknown extents: NumPy's ValueError."""
    return a.reshape(-1, m, -1)


def leading_unknown(a: Float64[:]) -> Float64[:, :]:
    """a.reshape(-1, 4): NumPy leaves the unknown out of its message."""
    return a.reshape(-1, 4)


def row_sums(a: Float64[:], m: Int64) -> Float64:
    """The rows of a reshaped view, weighted by their index."""
    t = 0.0
    w = 1.0
    rows = a.reshape(m, -1)
    for r in rows:
        t += w * r.sum()
        w += 1.0
    return t


def write_through(a: Int64[:], m: Int64) -> Int64[:]:
    """A reshape of a fresh array is a view of it: writes through the view
    reach the array."""
    b = a.copy()
    c = b.reshape(m, -1)
    c[0, 0] = 100
    c[m - 1] = 7
    return b


def write_through_transposed(a: Int64[:, :]) -> Int64[:, :]:
    """A reshape of a transposed array is a copy unless the transpose is
    C-contiguous too (one row or one column): only then do writes reach
    the array."""
    b = a.copy()
    t = b.T
    r = t.reshape(-1)
    for i in range(len(r)):
        r[i] = r[i] * 10 + i
    return b


def flattened(a: Float64[:, :]) -> Float64[:]:
    """a.flatten(): the elements in C order."""
    return a.flatten()


def flattened_3d(a: Int16[:, :, :]) -> Int16[:]:
    """a.flatten() of three axes."""
    return a.flatten()


def flatten_is_copy(a: Int64[:]) -> Int64:
    """Writing a flattened copy leaves the array alone, even when the
    array is already flat."""
    b = a.copy()
    f = b.flatten()
    for i in range(len(f)):
        f[i] = 1000
    return b.sum() * 1000000 + f.sum()


def to_int32(a: Float64[:]) -> Int32[:]:
    """astype(np.int32): truncation toward zero."""
    return a.astype(np.int32)


def to_float32(a: Int64[:, :]) -> Float32[:, :]:
    """astype(np.float32): rounded once."""
    return a.astype(np.float32)


def to_float(a: Int32[:, :]) -> Float64[:, :]:
    """astype(float): Python's float is float64."""
    return a.astype(float)


def to_int(a: Float32[:]) -> Int64[:]:
    """astype(int): Python's int is int64."""
    return a.astype(int)


def to_bool(a: Float64[:]) -> Bool[:]:
    """astype(bool): nonzero (NaN included) is True."""
    return a.astype(bool)


def wrapped_total(a: Int16[:]) -> Int64:
    """astype("uint8") wraps modulo 256; chained with astype(dtype=...)."""
    return a.astype("uint8").astype(dtype=np.int64).sum()


def astype_is_copy(a: Float64[:]) -> Float64:
    """astype to the same dtype still copies."""
    b = a.copy()
    c = b.astype(np.float64)
    for i in range(len(c)):
        c[i] = -1.0
    return b.sum() - c.sum()


def conjugated(a: Int32[:, :]) -> Int64:
    """conj() and conjugate() of a real array: its values, in a new array."""
    b = a.conj()
    b[0, 0] = -100
    return b.sum() * 1000 + a[0, 0] * 10 + a.conjugate().T[0, 1]


def conjugates(z: Complex128[:], x: Float32[:], b: Bool) -> Complex128:
    """np.conj and np.conjugate: of a complex array a new array of the
    conjugates (the argument is not written), of a real one its values, of
    a Bool an Int8, of Python numbers NumPy scalars; the methods of a
    complex array, new arrays too."""
    w = np.conj(z)
    w[0] = 0j
    y = np.conjugate(x)
    m = z.conj()
    m[-1] = 5j
    return w.sum() + 10.0 * z[0] + y.sum() + np.conj(b) + np.conj(1 + 2j) + np.conj(3) + 100.0 * (m + z.conjugate()).sum()


def row_hubs(m: Float32[:, :], nohubs: Bool) -> Float64:
    """Datashader's `_cooling` reads `ai.sum(axis=1)` of a 1-D row in a
    branch its callers never take: NumPy's AxisError when it is taken, as
    in CPython, not a compile error; the sum along the row's own axis
    otherwise."""
    s = 0.0
    for i in range(m.shape[0]):
        ai = m[i]
        d = Float64(ai.sum(axis=0))
        if nohubs:
            d = d / float(ai.sum(axis=1) + 1)
        s += d
    return s


def running_from_end(v: Int64[:], wrong: Bool) -> Int64:
    """`np.cumsum` along an axis a 1-D array does not have, when asked."""
    if wrong:
        return np.cumsum(v, axis=-2)[0]
    return np.cumsum(v, axis=-1)[len(v) - 1]
