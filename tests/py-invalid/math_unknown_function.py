# error: line 7: math.lcm is not compiled
import math
from postyp import Int64


def common(a: Int64, b: Int64) -> Int64:
    return math.lcm(a, b)
