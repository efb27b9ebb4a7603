# error: line 5: a tuple element that is not a type
from postyp import Float64


def pair(x: Float64) -> tuple[Float64, 3]:
    return x, x
