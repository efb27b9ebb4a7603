# error: line 9: 'scale' takes 2 arguments, 3 given
from postyp import Bool, Float64, Int64, Out

def scale(x: Float64, k: Float64) -> Float64:
    return x * k


def f(x: Float64) -> Float64:
    return scale(x, 2.0, 3.0)
