"""Small fixed-size linear algebra on static-shape arrays: 2x2 and 3x3
determinants, 3x3 matrix-vector products, a 2-D rotation, an Int32[4]
checksum."""
from postyp import Float64, Int32, Int64, Out
from postc.math import sin, cos


def det2(m: Float64[2, 2]) -> Float64:
    """ad - bc."""
    return m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]


def det3(m: Float64[3, 3]) -> Float64:
    """Cofactor expansion along the first row."""
    a = m[0, 0] * (m[1, 1] * m[2, 2] - m[1, 2] * m[2, 1])
    b = m[0, 1] * (m[1, 0] * m[2, 2] - m[1, 2] * m[2, 0])
    c = m[0, 2] * (m[1, 0] * m[2, 1] - m[1, 1] * m[2, 0])
    return a - b + c


def matvec3(m: Float64[3, 3], v: Float64[3], out: Out[Float64[3]]) -> None:
    """out = m @ v."""
    for i in range(3):
        s = 0.0
        for j in range(3):
            s += m[i, j] * v[j]
        out[i] = s


def rotate2(p: Float64[2], theta: Float64, out: Out[Float64[2]]) -> None:
    """Rotate p by theta (sin/cos: tolerance)."""
    c = cos(theta)
    s = sin(theta)
    out[0] = c * p[0] - s * p[1]
    out[1] = s * p[0] + c * p[1]


def checksum4(a: Int32[4]) -> Int64:
    """Weighted sum 1*a0 + 2*a1 + 3*a2 + 4*a3 (a[-1] is a[3])."""
    return Int64(a[0]) + 2 * Int64(a[1]) + 3 * Int64(a[2]) + 4 * Int64(a[-1])


def trace3_f(m: Float64[::1, :]) -> Float64:
    """Trace of a Fortran-order matrix of any size."""
    t = 0.0
    for i in range(m.shape[0]):
        t += m[i, i]
    return t


def ndims(a: Float64[:, :], v: Float64[:]) -> Int64:
    """a.ndim * 10 + v.ndim."""
    return a.ndim * 10 + v.ndim
