# error: line 10: the tuple a call returns is unpacked, not bound to a name
from postyp import Float64, Int64


def pair(x: Float64) -> tuple[Float64, Int64]:
    return x, 1


def use(x: Float64) -> Float64:
    t = pair(x)
    return x
