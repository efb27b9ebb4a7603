"""A module that imports NumPy as a CPython boundary (for callers on the
Python side) but never calls it from compiled code."""
import numpy as np
from postyp import Float64, Int64, Out

__all__ = ["fill_linspace", "count_between"]

DEFAULT_DTYPE = "float64"


def fill_linspace(lo: Float64, hi: Float64, out: Out[Float64[:]]) -> None:
    """out[i] = lo + i * (hi - lo) / (n - 1), the ends exact."""
    n = len(out)
    if n == 1:
        out[0] = lo
        return
    step = (hi - lo) / (n - 1)
    for i in range(n - 1):
        out[i] = lo + i * step
    out[n - 1] = hi


def count_between(x: Float64[:], lo: Float64, hi: Float64) -> Int64:
    """Number of lo <= x[i] <= hi."""
    c = 0
    for i in range(len(x)):
        if lo <= x[i] <= hi:
            c += 1
    return c
