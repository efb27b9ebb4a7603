"""Products of vectors and matrices in compiled code: `np.dot(a, b)`,
`a.dot(b)` and `a @ b` on 1-D and 2-D arrays (inner products, matrix
times vector, vector times matrix, matrix times matrix), with NumPy's
result dtypes, over C-order, Fortran-order, transposed, strided and empty
operands; a shared extent that differs panics with NumPy's message."""
import numpy as np
from postyp import Bool, Complex64, Complex128, Float16, Float32, Float64, Int8, Int16, Int32, Int64, UInt8


def inner(a: Float64[:], b: Float64[:]) -> Float64:
    """np.dot of two vectors: a scalar."""
    return np.dot(a, b)


def inner_method(a: Int64[:], b: Int64[:]) -> Int64:
    """a.dot(b) on integers."""
    return a.dot(b)


def inner_at(a: Int32[:], b: Int32[:]) -> Int32:
    """a @ b of two Int32 vectors stays Int32."""
    return a @ b


def inner_mixed(a: Int8[:], b: UInt8[:]) -> Int16:
    """Int8 with UInt8 promotes to Int16, as NumPy's promotion."""
    return np.dot(a, b)


def inner_half(a: Float16[:], b: Float16[:]) -> Float16:
    """Float16 products are summed in Float32 and rounded once."""
    return np.dot(a, b)


def any_both(a: Bool[:], b: Bool[:]) -> Bool:
    """Bool @ Bool: whether some position holds True in both."""
    return a @ b


def inner_complex(a: Complex128[:], b: Complex128[:]) -> Complex128:
    """No conjugation: np.dot is not np.vdot."""
    return np.dot(a, b)


def matvec(a: Float64[:, :], x: Float64[:]) -> Float64[:]:
    """a @ x: one entry per row of a."""
    return a @ x


def vecmat(x: Float32[:], a: Float32[:, :]) -> Float32[:]:
    """np.dot(x, a): one entry per column of a."""
    return np.dot(x, a)


def matmat(a: Float64[:, :], b: Float64[:, :]) -> Float64[:, :]:
    """a @ b: a new C-order matrix."""
    return a @ b


def matmat_method(a: Int64[:, :], b: Int64[:, :]) -> Int64[:, :]:
    """a.dot(b) on integer matrices."""
    return a.dot(b)


def matmat_complex(a: Complex64[:, :], b: Complex64[:, :]) -> Complex64[:, :]:
    """np.dot of Complex64 matrices stays Complex64."""
    return np.dot(a, b)


def gram(a: Float64[:, :]) -> Float64[:, :]:
    """a.T @ a through a transposed view."""
    return a.T @ a


def residual(a: Float64[:, :], x: Float64[:], y: Float64[:]) -> Float64[:]:
    """a @ x - y: a product inside a whole-array expression."""
    return a @ x - y


def quadratic(a: Float64[:, :], x: Float64[:]) -> Float64:
    """x @ (a @ x): a product of a product."""
    return x @ (a @ x)


def chained(a: Float64[:, :], b: Float64[:, :], x: Float64[:]) -> Float64:
    """A product kept in a local, then reduced."""
    ab = np.dot(a, b)
    y = ab.dot(x)
    return y.sum()
