# error: line 2: unsupported construct: import * (name each import)
from postc.math import *
from postyp import Float64


def f(x: Float64) -> Float64:
    return sqrt(x)
