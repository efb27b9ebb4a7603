# error: line 8: a later `return` gives another tuple
from postyp import Float64, Int64


def pair(x: Float64, n: Int64):
    if n > 0:
        return x, n
    return x, x
