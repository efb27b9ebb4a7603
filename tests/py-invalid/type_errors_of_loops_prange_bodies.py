# error: the bodies and reductions of `prange` loops are the typecheck's errors, every one, with the errors in refused loops and after them still reported
import numpy as np
from postc import prange
from postyp import Float64, Int64, Out


def bodies(a: Out[Float64[:]], n: Int64) -> Float64:
    t = 0.0
    for i in prange(n):
        if a[i] > 0.0:
            return a[i]
        i = 2
        t = t * 0.5 + a[i]
        a[i] = undefined_one
    for j in prange(n):
        u = a[j] + "text"
    return t + j


def reductions(a: Float64[:], n: Int64) -> Float64:
    s = 0.0
    b = True
    for i in prange(n):
        b = max(b, a[i] > 0.0)
    for i in prange(n):
        s += a[i] + "text"
    w = np.zeros(3)
    for i in prange(n):
        w += a[i]
    for i in prange(n):
        for j in prange(n):
            s += a[j]
    return s + undefined_two
