"""Numerical integration: trapezoid and Simpson rules over samples and
over a polynomial evaluated in place, a cumulative trapezoid into an
output, and linear interpolation by binary search."""
from postyp import Float64, Int64, Out

__all__ = ["trapezoid", "simpson", "cumtrapz", "poly_integral", "interp"]


def trapezoid(y: Float64[:], dx: Float64) -> Float64:
    """Composite trapezoid rule on evenly spaced samples."""
    n = len(y)
    s = (y[0] + y[n - 1]) / 2.0
    for i in range(1, n - 1):
        s += y[i]
    return s * dx


def simpson(y: Float64[:], dx: Float64) -> Float64:
    """Composite Simpson rule (len(y) odd)."""
    n = len(y)
    assert n % 2 == 1, "Simpson needs an odd number of samples"
    s = y[0] + y[n - 1]
    for i in range(1, n - 1):
        w = 4.0 if i % 2 == 1 else 2.0
        s += w * y[i]
    return s * dx / 3.0


def cumtrapz(y: Float64[:], dx: Float64, out: Out[Float64[:]]) -> None:
    """out[0] = 0, out[i] = integral up to sample i."""
    out[0] = 0.0
    for i in range(1, len(y)):
        out[i] = out[i - 1] + (y[i - 1] + y[i]) * dx / 2.0


def poly_integral(a: Float64, b: Float64, n: Int64) -> Float64:
    """Integral of x**3 - 2 x + 1 over [a, b] by the midpoint rule with n
    cells; the integrand's exponent is an integer power."""
    h = (b - a) / n
    s = 0.0
    for i in range(n):
        x = a + (i + 0.5) * h
        s += x ** 3 - 2.0 * x + 1.0
    return s * h


def interp(x: Float64, xp: Float64[:], fp: Float64[:]) -> Float64:
    """Piecewise-linear interpolation, clamped at the ends."""
    n = len(xp)
    if x <= xp[0]:
        return fp[0]
    if x >= xp[n - 1]:
        return fp[n - 1]
    lo = 0
    hi = n - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if xp[mid] <= x:
            lo = mid
        else:
            hi = mid
    t = (x - xp[lo]) / (xp[hi] - xp[lo])
    return fp[lo] + t * (fp[hi] - fp[lo])
