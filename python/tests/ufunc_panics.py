"""A ufunc whose body can panic (NumPy calls its loop from C)."""
from postyp import Int64
from postc import ufunc


@ufunc
def idiv(a: Int64, b: Int64) -> Int64:
    return a // b
