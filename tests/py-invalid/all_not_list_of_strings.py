# error: line 8: __all__ must be a list of string literals
from postyp import Bool, Float64, Int64, Out

def alpha(x: Int64) -> Int64:
    return x


__all__ = [alpha]
