"""Elementwise and generalized ufuncs over several dtypes: integer, Bool
and complex elementwise bodies, a clipping ufunc with branches, a
normalizing gufunc with an array output, a pairwise-distance gufunc."""
from postyp import Bool, Complex128, Float32, Float64, Int16, Int64, Out
from postc import ufunc
from postc.math import sqrt


@ufunc
def clip(x: Float64, lo: Float64, hi: Float64) -> Float64:
    """min(max(x, lo), hi) written with branches."""
    if x < lo:
        return lo
    elif x > hi:
        return hi
    return x


@ufunc
def imadd(a: Int64, b: Int64, c: Int64) -> Int64:
    """a * b + c on Int64."""
    return a * b + c


@ufunc
def in_unit_disk(x: Float32, y: Float32) -> Bool:
    """x*x + y*y <= 1 in Float32."""
    return x * x + y * y <= 1.0


@ufunc
def csquare(z: Complex128) -> Complex128:
    """z * z."""
    return z * z


@ufunc
def gcd16(a: Int16, b: Int16) -> Int16:
    """Euclid in a ufunc body (non-negative operands)."""
    while b != 0:
        t = a % b
        a = b
        b = t
    return a


@ufunc("(n)->(n)")
def normalize(x: Float64[:], out: Out[Float64[:]]) -> None:
    """out = x / |x| for each vector of the stack."""
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * x[i]
    r = sqrt(s)
    for i in range(x.shape[0]):
        out[i] = x[i] / r


@ufunc("(d),(d)->()")
def sqdist(a: Float64[:], b: Float64[:]) -> Float64:
    """Squared Euclidean distance between broadcast points."""
    s = 0.0
    for k in range(a.shape[0]):
        d = a[k] - b[k]
        s += d * d
    return s

