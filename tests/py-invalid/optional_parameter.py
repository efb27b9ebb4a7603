# error: line 4: a parameter annotated `Float64 | None`
from postyp import Float64

def solve(x: Float64, tol: Float64 | None = None) -> Float64:
    if tol is None:
        return x
    return x + tol
