# error: 3 errors, all reported at once: line 4: postc.math has no intrinsic 'nosuch'; line 6: __all__ names 'h', which this module does not define; line 10: 'and' needs Bool operands, got Int64 and Int64
from postyp import Bool, Float64, Int64, Out

from postc.math import nosuch

__all__ = ["g", "h"]


def g(x: Int64) -> Int64:
    return x and 1
