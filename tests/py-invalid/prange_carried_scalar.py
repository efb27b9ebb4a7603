# error: line 9: `x` is assigned before the loop and assigned in the `prange` loop
from postc import prange
from postyp import Float64


def smooth(a: Float64[:]) -> Float64:
    x = 0.0
    for i in prange(len(a)):
        x = 0.5 * x + a[i]
    return x
