# error: line 4: a parameter annotated `Float64[:] | None`
from postyp import Float64

def total(x: Float64, weights: Float64[:] | None = None) -> Float64:
    if weights is None:
        return x
    return x * weights[0]
