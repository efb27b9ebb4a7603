"""A whole-array expression for scripts/bench-elementwise: compiled by
postc as one fused loop, by Numba as its array expression."""
from postyp import Float64


def axpy(x: Float64[:], y: Float64[:]) -> Float64[:]:
    return 2.0 * x + y
