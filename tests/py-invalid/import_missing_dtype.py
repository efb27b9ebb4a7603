# error: line 2: postyp has no type 'Float128'
from postyp import Float64, Float128


def f(x: Float64) -> Float64:
    return x
