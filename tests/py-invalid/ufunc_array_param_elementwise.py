# error: line 8: elementwise @ufunc 'scale' takes scalars; parameter 'x' is an array (give a signature)
from postyp import Bool, Float64, Int64, Out

from postc import ufunc


@ufunc
def scale(x: Float64[:], k: Float64) -> Float64:
    return x[0] * k
