# error: line 10: a positional-only parameter named by keyword, and one left out
from postyp import Float64, Int64


def scaled(x: Float64, k: Int64 = 2, /, offset: Float64 = 0.5) -> Float64:
    return x * k + offset


def calls(x: Float64) -> Float64:
    return scaled(x, k=3) + scaled(offset=1.0)
