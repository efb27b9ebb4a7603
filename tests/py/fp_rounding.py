"""Floating-point rounding in Float16, Float32 and Float64: harmonic series
that stall, Kahan summation, overflow to infinity, signed zeros."""
from postyp import Float16, Float32, Float64, Int64

__all__ = ["harmonic16", "harmonic32", "tenths16", "naive32", "kahan32",
           "f16_overflow", "neg_zero", "abs32", "midpoint16", "ulp_step"]


def harmonic16(n: Int64) -> Float16:
    """1 + 1/2 + ... + 1/n in Float16 (stalls at 7.0859375)."""
    s = Float16(0.0)
    one = Float16(1.0)
    for k in range(1, n + 1):
        s += one / Float16(k)
    return s


def harmonic32(n: Int64) -> Float32:
    """The harmonic sum in Float32."""
    s = Float32(0.0)
    for k in range(1, n + 1):
        s = s + Float32(1.0) / Float32(k)
    return s


def tenths16(n: Int64) -> Float16:
    """0.1 added n times in Float16 (the literal takes the Float16 dtype)."""
    s = Float16(0.0)
    for k in range(n):
        s = s + 0.1
    return s


def naive32(x: Float32[:]) -> Float32:
    """Left-to-right Float32 sum."""
    s = Float32(0.0)
    for i in range(len(x)):
        s += x[i]
    return s


def kahan32(x: Float32[:]) -> Float32:
    """Kahan compensated Float32 sum."""
    s = Float32(0.0)
    c = Float32(0.0)
    for i in range(len(x)):
        y = x[i] - c
        t = s + y
        c = (t - s) - y
        s = t
    return s


def f16_overflow(x: Float16, k: Int64) -> Float16:
    """Doubles x k times in Float16: reaches inf past 65504."""
    for i in range(k):
        x = x * 2.0
    return x


def neg_zero(x: Float64) -> Float64:
    """-x (the sign of zero matters)."""
    return -x


def abs32(x: Float32) -> Float32:
    """abs of a Float32, including -0.0 and NaN."""
    return abs(x)


def midpoint16(a: Float16, b: Float16) -> Float16:
    """(a + b) / 2 in Float16: the sum may overflow."""
    return (a + b) / 2.0


def ulp_step(x: Float64) -> Float64:
    """(x + 1.0) - x: 1.0 or a rounding of it for large x."""
    return (x + 1.0) - x
