"""`prange` loops for scripts/bench-prange: compute-bound Mandelbrot rows,
a sum-of-squares reduction, a memory-bound clip and a nearly empty loop
(the fixed cost of starting one). `from numba import prange` so that Numba
runs the same source in parallel; postc accepts either import."""
from numba import prange
from postyp import Float64, Int64, Out


def mandel_rows(h: Int64, w: Int64, maxit: Int64, counts: Out[Int64[:]]) -> None:
    for y in prange(h):
        ci = -1.5 + 3.0 * y / h
        c = 0
        for x in range(w):
            cr = -2.0 + 3.0 * x / w
            zr = 0.0
            zi = 0.0
            k = 0
            while k < maxit and zr * zr + zi * zi <= 4.0:
                t = zr * zr - zi * zi + cr
                zi = 2.0 * zr * zi + ci
                zr = t
                k += 1
            c += k
        counts[y] = c


def sum_squares(a: Float64[:]) -> Float64:
    s = 0.0
    for i in prange(len(a)):
        s += a[i] * a[i]
    return s


def clip(a: Float64[:], lo: Float64, hi: Float64, out: Out[Float64[:]]) -> None:
    for i in prange(len(a)):
        out[i] = min(max(a[i], lo), hi)


def empty_loops(reps: Int64, out: Out[Int64[:]]) -> None:
    """`reps` loops of 1,000 iterations, each storing one value."""
    for r in range(reps):
        for i in prange(1000):
            out[i] = r


def matmul_rows(a: Float64[:, :], b: Float64[:, :], c: Out[Float64[:, :]]) -> None:
    """C = A B with the rows of C in parallel, each dot product in order."""
    n, k = a.shape
    m = b.shape[1]
    for i in prange(n):
        for j in range(m):
            s = 0.0
            for p in range(k):
                s += a[i, p] * b[p, j]
            c[i, j] = s
