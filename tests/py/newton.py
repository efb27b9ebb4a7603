"""Iterative root finding: Newton's method for square and cube roots,
bisection, and a fixed-point iteration, each with a tolerance constant and
an iteration cap."""
from postyp import Float32, Float64, Int64
from postc.math import fabs

EPS: Float64 = 1e-12
MAX_ITER = 100


def newton_sqrt(a: float) -> float:
    """Newton for x*x = a (a > 0), stopping when the step is tiny."""
    x = a if a > 1.0 else 1.0
    for it in range(MAX_ITER):
        nx = 0.5 * (x + a / x)
        if fabs(nx - x) <= EPS * nx:
            x = nx
            break
        x = nx
    return x


def newton_cbrt(a: Float64) -> Float64:
    """Newton for x**3 = a (a > 0)."""
    x = a if a > 1.0 else 1.0
    it = 0
    while it < MAX_ITER:
        nx = x - (x * x * x - a) / (3.0 * x * x)
        if abs(nx - x) <= EPS * abs(nx):
            return nx
        x = nx
        it += 1
    return x


def bisect_cubic(lo: Float64, hi: Float64) -> Float64:
    """Root of x**3 - x - 2 in [lo, hi] by 60 bisections."""
    flo = lo * lo * lo - lo - 2.0
    for i in range(60):
        mid = (lo + hi) / 2.0
        fm = mid * mid * mid - mid - 2.0
        if (fm < 0.0) == (flo < 0.0):
            lo = mid
            flo = fm
        else:
            hi = mid
    return (lo + hi) / 2.0


def cos_fixed_point(x0: Float32, n: Int64) -> Float32:
    """n steps of x = 1 - x*x/2 + x**4/24 (a Float32 cosine fixed point)."""
    x = x0
    for i in range(n):
        x2 = x * x
        x = 1.0 - x2 / 2.0 + x2 * x2 / 24.0
    return x


def iterations_to_converge(a: Float64) -> Int64:
    """How many Newton steps newton_sqrt's rule takes from max(a, 1)."""
    x = max(a, 1.0)
    n = 0
    while n < MAX_ITER:
        nx = 0.5 * (x + a / x)
        n += 1
        if fabs(nx - x) <= EPS * nx:
            break
        x = nx
    return n
