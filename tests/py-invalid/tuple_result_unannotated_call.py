# error: line 10: a caller needs the tuple result declared
from postyp import Float64


def pair(x: Float64):
    return x, x


def use(x: Float64) -> Float64:
    a, b = pair(x)
    return a + b
