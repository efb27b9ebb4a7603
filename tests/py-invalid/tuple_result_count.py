# error: line 6: a tuple of 3 where the annotation says 2
from postyp import Float64, Int64


def pair(x: Float64) -> tuple[Float64, Int64]:
    return x, 1, 2
