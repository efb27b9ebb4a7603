# error: line 7: an in-place operator whose result has more axes than its target
from postyp import Float64, Out


def widen(a: Out[Float64[:]], m: Float64[:, :]) -> None:
    a *= 2.0
    a += m
