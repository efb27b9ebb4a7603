# error: line 9: unsupported construct: keyword argument in a call to the compiled function 'scale'
from postyp import Bool, Float64, Int64, Out

def scale(x: Float64, k: Float64) -> Float64:
    return x * k


def double(x: Float64) -> Float64:
    return scale(x, k=2.0)
