"""Attribute decorators: GPU functions with a host fallback (run on the
host in these tests), a cold error path, an out-of-line helper."""
from postyp import Float32, Float64, Int64, Out
from postc import gpu, cold, noinline


@cold
def report_bad_length(n: Int64, m: Int64) -> Int64:
    """Error path: the mismatch n - m, flagged as rarely run."""
    return n - m


@noinline
def fma_like(a: Float32, x: Float32, y: Float32) -> Float32:
    """a * x + y, rounded twice (never fused)."""
    return a * x + y


@gpu(fallback=True)
def saxpy_gpu(a: Float32, x: Float32[:], y: Out[Float32[:]]) -> Int64:
    """y = a x + y on the device when there is one; returns 0, or the
    length mismatch when the arrays differ in size."""
    if len(x) != len(y):
        return report_bad_length(len(x), len(y))
    for i in range(len(x)):
        y[i] = fma_like(a, x[i], y[i])
    return 0


@gpu(fallback=True)
def scale_rows(a: Out[Float64[:, :]], s: Float64[:]) -> None:
    """a[i, j] *= s[i]."""
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] *= s[i]


@gpu(fallback=True)
def sumsq(x: Float64[:]) -> Float64:
    """Sum of squares, a reduction on the device."""
    s = 0.0
    for i in range(len(x)):
        s += x[i] * x[i]
    return s


@noinline
@cold
def clip_count(x: Float64[:], lo: Float64, hi: Float64) -> Int64:
    """Two attributes on one function: how many values fall outside."""
    c = 0
    for i in range(len(x)):
        if x[i] < lo or x[i] > hi:
            c += 1
    return c
