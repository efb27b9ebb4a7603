# error: line 4: __all__ names 'gamma', which this module does not define
from postyp import Bool, Float64, Int64, Out

__all__ = ["alpha", "gamma"]


def alpha(x: Int64) -> Int64:
    return x
