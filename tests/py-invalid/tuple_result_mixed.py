# error: line 8: a function that returns a tuple returns one on every path
from postyp import Float64, Int64


def pair(x: Float64, n: Int64):
    if n > 0:
        return x, n
    return x
