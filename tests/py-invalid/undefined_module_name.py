# error: line 6: `math` was never imported: an undefined name, as CPython's NameError says
from postyp import Float64


def root(x: Float64) -> Float64:
    return math.sqrt(x)
