"""An elementwise kernel for scripts/bench-prange's parallel ufunc row:
`postc.ufunc(logistic, parallel=True)` against Numba's
`vectorize(["float64(float64)"], target="parallel")` of the same function."""
import math

from postyp import Float64


def logistic(x: Float64) -> Float64:
    return 1.0 / (1.0 + math.exp(-x))
