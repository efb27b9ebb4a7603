# error: line 11: `last` is read before it is assigned in this iteration of the `prange` loop
from postc import prange
from postyp import Float64


def jumps(a: Float64[:]) -> Float64:
    s = 0.0
    for i in prange(len(a)):
        if i > 0:
            # `last` would be the previous iteration's value: carried.
            s += a[i] - last
        last = a[i]
    return s
