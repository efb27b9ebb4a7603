# error: line 8: type() of a local (its call, an echo, is not reported); line 13: type() of an array parameter
import numpy as np
from postyp import Float64


def scaled(x: Float64) -> Float64:
    y = x * 2.0
    T = type(y)
    return T(0.5) * y


def of_array(a: Float64[:]) -> Float64:
    T = type(a)
    return a[0]
