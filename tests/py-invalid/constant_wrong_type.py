# error: line 4: constant 'EPS' is declared Int64 but its value 1e-12 is a Float64
from postyp import Bool, Float64, Int64, Out

EPS: Int64 = 1e-12


def f(x: Float64) -> Float64:
    return x + EPS
