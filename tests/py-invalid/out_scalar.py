# error: line 5: Out[...] takes an array type, not the scalar Float64
from postyp import Float64, Out


def set_value(x: Out[Float64]) -> None:
    x = 1.0
