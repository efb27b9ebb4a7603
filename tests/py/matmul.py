"""Matrix products: a stacked gufunc with an output operand, Fortran-order
and explicitly C-order 2-D arrays, and small helpers over 2-D views."""
from postyp import Float64, Float32, Int32, Out
from postc import ufunc


@ufunc("(m,k),(k,n)->(m,n)")
def matmul(a: Float64[:, :], b: Float64[:, :], c: Out[Float64[:, :]]) -> None:
    """c = a @ b for each matrix of a broadcast stack."""
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            c[i, j] = s


def matmul_f(a: Float32[::1, :], b: Float32[::1, :], c: Out[Float32[::1, :]]) -> None:
    """Float32 product of Fortran-order matrices, column by column."""
    m = a.shape[0]
    n = b.shape[1]
    kk = a.shape[1]
    for j in range(n):
        for i in range(m):
            c[i, j] = Float32(0.0)
        for k in range(kk):
            bkj = b[k, j]
            for i in range(m):
                c[i, j] += a[i, k] * bkj


def matvec(a: Float64[:, ::1], x: Float64[:], y: Out[Float64[:]]) -> None:
    """y = a @ x for a C-order matrix."""
    for i in range(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j] * x[j]
        y[i] = s


def trace(a: Float64[:, :]) -> Float64:
    """Sum of the diagonal of any (possibly transposed) square view."""
    t = 0.0
    for i in range(min(a.shape[0], a.shape[1])):
        t += a[i, i]
    return t


def transpose_into(a: Int32[:, :], t: Out[Int32[:, :]]) -> None:
    """t = a.T, element by element."""
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            t[j, i] = a[i, j]


def weighted_sum(a: Int32[:, :]) -> Int32:
    """Sum of a[i, j] * (10*i + j): depends on the index map of the view."""
    s = Int32(0)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * Int32(10 * i + j)
    return s
