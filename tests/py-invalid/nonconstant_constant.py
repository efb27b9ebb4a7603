# error: line 8: module constant 'N' must be a literal constant, not a call
from postyp import Bool, Float64, Int64, Out

def size() -> Int64:
    return 64


N: Int64 = size()


def f(x: Int64) -> Int64:
    return x + N
