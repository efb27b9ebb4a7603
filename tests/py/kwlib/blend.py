"""Kernels with default parameter values, called by keyword from other POST modules."""
from postyp import Float64, Int64

STEPS = 4


def lerp(a: Float64, b: Float64, t: Float64 = 0.5) -> Float64:
    """a + t (b - a); t defaults to the midpoint."""
    return a + t * (b - a)


def ramp(x: Float64, lo: Float64 = -1.0, hi: Float64 = 1.0, steps: Int64 = STEPS) -> Float64:
    """x clamped to [lo, hi], then rounded down to one of `steps` levels above lo."""
    if x < lo:
        x = lo
    if x > hi:
        x = hi
    width = (hi - lo) / steps
    k = int((x - lo) / width)
    if k == steps:
        k = steps - 1
    return lo + k * width


def shift(x: Float64, *, by: Float64 = 1.0, times: Int64 = 1) -> Float64:
    """x moved `times` steps of `by`; both named at the call."""
    return x + by * times
