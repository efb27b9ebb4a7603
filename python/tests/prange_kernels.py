"""`prange` kernels of test_prange.py: float reductions whose partial sums
round, so the combining order shows in the bits, an integer reduction and a
loop that indexes past the end part-way."""
from postc import prange
from postyp import Float64, Int64, Out


def harmonic(n: Int64) -> Float64:
    s = 0.0
    for i in prange(n):
        s += 1.0 / (i + 0.5)
    return s


def growth(n: Int64) -> Float64:
    p = 1.0
    for i in prange(n):
        p *= 1.0 + 0.5 / (i + 3.0)
    return p


def spread(n: Int64) -> Float64:
    lo = 1e300
    hi = -1e300
    for i in prange(n):
        x = 1.0 / (i + 0.5) - 3.0 / (n - i + 0.25)
        lo = min(lo, x)
        hi = max(hi, x)
    return hi - lo


def mixed(n: Int64) -> Int64:
    s = 0
    for i in prange(n):
        s += i * i - 7 * (i % 13) - (i >> 2)
    return s


def past_end(a: Float64[:], n: Int64) -> Float64:
    s = 0.0
    for i in prange(n):
        s += a[i]
    return s


def stops_early(done: Out[Float64[:]], panic_at: Int64, work: Int64) -> Float64:
    """Each iteration does `work` steps and marks itself done; iteration
    `panic_at` raises instead."""
    s = 0.0
    for i in prange(done.shape[0]):
        if i == panic_at:
            raise ValueError("stopped")
        x = 0.0
        for k in range(work):
            x += 1e-9 * k
        done[i] = x + 1.0
        s += x
    return s
