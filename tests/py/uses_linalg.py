"""Projections, Gram-Schmidt and power iteration built on linalg.core,
imported under another name."""
from postyp import Float64, Int64, Out
from postc import empty
from linalg.core import dot as vdot
from linalg.core import axpy_into, norm, scale_into, copy_into

TOL: Float64 = 1e-12
MAX_ITER: Int64 = 200


def project(u: Float64[:], v: Float64[:], out: Out[Float64[:]]) -> None:
    """out = (u . v / v . v) v."""
    c = vdot(u, v) / vdot(v, v)
    for i in range(len(v)):
        out[i] = c * v[i]


def cosine(u: Float64[:], v: Float64[:]) -> Float64:
    """Cosine similarity."""
    return vdot(u, v) / (norm(u) * norm(v))


def orthogonalize(u: Float64[:], v: Float64[:], out: Out[Float64[:]]) -> None:
    """out = u - proj_v(u), via a copy and an axpy."""
    copy_into(u, out)
    axpy_into(-(vdot(u, v) / vdot(v, v)), v, out)


def power_iteration(a: Float64[:, :], x: Out[Float64[:]]) -> Int64:
    """Dominant eigenvector of a into x (x holds the start); returns the
    number of iterations until the update is below TOL."""
    n = a.shape[0]
    y = empty(n, Float64)
    it = 0
    while it < MAX_ITER:
        it += 1
        for i in range(n):
            s = 0.0
            for j in range(n):
                s += a[i, j] * x[j]
            y[i] = s
        scale_into(1.0 / norm(y), y)
        diff = 0.0
        for i in range(n):
            diff += abs(y[i] - x[i])
        copy_into(y, x)
        if diff < TOL:
            break
    return it
