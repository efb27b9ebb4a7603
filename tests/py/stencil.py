"""Stencils: a heat-equation step over Fortran-order Float32 grids, a 1-D
three-point smoother with a periodic boundary through negative indices, and
a discrete Laplacian on a static 4x4 grid."""
from postyp import Float32, Float64, Out

ALPHA: Float32 = 0.25


def heat_step(x: Float32[::1, :], out: Out[Float32[::1, :]]) -> None:
    """One explicit step of u_t = alpha * laplacian(u); the border is copied."""
    m = x.shape[0]
    n = x.shape[1]
    for j in range(n):
        for i in range(m):
            c = x[i, j]
            if i == 0 or i == m - 1 or j == 0 or j == n - 1:
                out[i, j] = c
                continue
            lap = x[i - 1, j] + x[i + 1, j] + x[i, j - 1] + x[i, j + 1] - c * 4.0
            out[i, j] = c + Float32(ALPHA) * lap


def smooth_periodic(x: Float64[:], out: Out[Float64[:]]) -> None:
    """out[i] = (x[i-1] + 2 x[i] + x[i+1]) / 4 on a ring: x[i - n + 1]
    reaches the start again, x[-1] the end."""
    n = len(x)
    for i in range(n):
        left = x[i - 1]
        right = x[i - n + 1]
        out[i] = (left + 2.0 * x[i] + right) / 4.0


def laplace4(u: Float64[4, 4], out: Out[Float64[4, 4]]) -> None:
    """5-point Laplacian in the interior of a static 4x4 grid; 0 on the border."""
    for i in range(4):
        for j in range(4):
            if 0 < i < 3 and 0 < j < 3:
                out[i, j] = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j]
            else:
                out[i, j] = 0.0


def max_abs_diff(a: Float32[:, :], b: Float32[:, :]) -> Float32:
    """max |a - b| over two equally shaped grids."""
    d = Float32(0.0)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            d = max(d, abs(a[i, j] - b[i, j]))
    return d
