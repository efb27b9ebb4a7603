# error: line 5: a ufunc operand that may be None
from postc import ufunc
from postyp import Float64

@ufunc
def shifted(x: Float64, by: Float64 | None) -> Float64:
    if by is None:
        return x
    return x + by
