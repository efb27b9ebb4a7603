"""Polynomials with coefficients in ascending order: Horner's rule as a
generalized ufunc and in Float32, derivatives, products from roots."""
from postyp import Float32, Float64, Int64, Out
from postc import ufunc


@ufunc("(),(n)->()")
def horner(x: Float64, c: Float64[:]) -> Float64:
    """sum c[k] x**k, for every x of a broadcast array."""
    n = c.shape[0]
    acc = 0.0
    for k in range(n - 1, -1, -1):
        acc = acc * x + c[k]
    return acc


def horner32(x: Float32, c: Float32[:]) -> Float32:
    """Horner's rule in Float32 (c may be a strided view)."""
    acc = Float32(0.0)
    k = len(c) - 1
    while k >= 0:
        acc = acc * x + c[k]
        k -= 1
    return acc


def derivative(c: Float64[:], d: Out[Float64[:]]) -> None:
    """d[k] = (k+1) c[k+1], len(d) == len(c) - 1."""
    for k in range(len(d)):
        d[k] = (k + 1) * c[k + 1]


def from_roots(r: Float64[:], c: Out[Float64[:]]) -> None:
    """Coefficients of prod (x - r[i]); len(c) == len(r) + 1."""
    c[0] = 1.0
    for k in range(1, len(c)):
        c[k] = 0.0
    for i in range(len(r)):
        for k in range(i + 1, 0, -1):
            c[k] = c[k - 1] - r[i] * c[k]
        c[0] = -r[i] * c[0]


def int_poly(x: Int64, c: Int64[:]) -> Int64:
    """Integer Horner evaluation (values stay in range)."""
    acc = 0
    for k in range(len(c) - 1, -1, -1):
        acc = acc * x + c[k]
    return acc
