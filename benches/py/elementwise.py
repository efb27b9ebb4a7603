"""A whole-array expression for scripts/bench-elementwise: compiled by
postc as one fused loop, by Numba as its array expression; and the same
computation written as a loop into a fresh array."""
import numpy as np
from postyp import Float64


def axpy(x: Float64[:], y: Float64[:]) -> Float64[:]:
    return 2.0 * x + y


def axpy_loop(x: Float64[:], y: Float64[:]) -> Float64[:]:
    out = np.empty(len(x))
    for i in range(len(x)):
        out[i] = 2.0 * x[i] + y[i]
    return out
