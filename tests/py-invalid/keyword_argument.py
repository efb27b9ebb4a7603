# error: line 6: keyword argument to a function that is not a POST function
from postyp import Float64
from postc.math import atan2

def angle(x: Float64, y: Float64) -> Float64:
    return atan2(y=y, x=x)
