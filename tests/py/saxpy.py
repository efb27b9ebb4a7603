"""BLAS-1 style kernels: saxpy in Float32 and an elementwise axpy ufunc."""
from postyp import Float32, Float64, Out
from postc import ufunc


def saxpy(a: Float32, x: Float32[:], y: Out[Float32[:]]) -> None:
    """y = a*x + y, in place; x may be any strided view."""
    for i in range(len(x)):
        y[i] = a * x[i] + y[i]


def sscal(a: Float32, y: Out[Float32[:]]) -> None:
    """y *= a, in place (augmented indexed store)."""
    for i in range(y.shape[0]):
        y[i] *= a


def sasum(x: Float32[:]) -> Float32:
    """Sum of magnitudes, accumulated in Float32."""
    s = Float32(0.0)
    for i in range(len(x)):
        s += abs(x[i])
    return s


@ufunc
def axpy(a: Float64, x: Float64, y: Float64) -> Float64:
    """Elementwise a*x + y, broadcast like any NumPy ufunc."""
    return a * x + y


@ufunc
def half_step(x: Float32, y: Float32) -> Float32:
    """Elementwise Float32 midpoint; the literal 0.5 stays Float32."""
    return (x + y) * 0.5
