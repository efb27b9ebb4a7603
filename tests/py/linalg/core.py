"""Vector kernels shared by other POST modules."""
from postyp import Float64, Out
from postc.math import sqrt

__all__ = ["dot", "axpy_into", "norm", "scale_into", "copy_into"]


def dot(a: Float64[:], b: Float64[:]) -> Float64:
    """sum a[i] b[i]."""
    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s


def norm(a: Float64[:]) -> Float64:
    """Euclidean norm."""
    return sqrt(dot(a, a))


def axpy_into(alpha: Float64, x: Float64[:], y: Out[Float64[:]]) -> None:
    """y += alpha x."""
    for i in range(len(x)):
        y[i] += alpha * x[i]


def scale_into(alpha: Float64, y: Out[Float64[:]]) -> None:
    """y *= alpha."""
    for i in range(len(y)):
        y[i] = y[i] * alpha


def copy_into(x: Float64[:], y: Out[Float64[:]]) -> None:
    """y = x."""
    for i in range(len(x)):
        y[i] = x[i]
