"""Dot products and norms: a generalized ufunc over rows, Float32
accumulation, and the module-qualified intrinsic spelling."""
import postc.math
from postyp import Float32, Float64, Int64
from postc import ufunc


@ufunc("(n),(n)->()")
def rowdot(a: Float64[:], b: Float64[:]) -> Float64:
    """Dot product of the last axes: one call per broadcast row."""
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


def dot32(x: Float32[:], y: Float32[:]) -> Float32:
    """Float32 dot product, accumulated in Float32."""
    assert len(x) == len(y), "length mismatch"
    s = Float32(0.0)
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


def norm2(x: Float64[:]) -> Float64:
    """Euclidean norm with the intrinsic called as postc.math.sqrt."""
    s = 0.0
    for i in range(len(x)):
        s += x[i] * x[i]
    return postc.math.sqrt(s)


def norm2_32(x: Float32[:]) -> Float32:
    """Float32 norm: postc.math.sqrt keeps the Float32 dtype."""
    s = Float32(0.0)
    for i in range(len(x)):
        s += x[i] * x[i]
    return postc.math.sqrt(s)


def idot(a: Int64[:], b: Int64[:]) -> Int64:
    """Integer dot product (values chosen to stay in range)."""
    s = 0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s
