# error: line 7: math.trunc of a Float32 raises TypeError in CPython
import math
from postyp import Float32, Int64


def whole(x: Float32) -> Int64:
    return math.trunc(x)
