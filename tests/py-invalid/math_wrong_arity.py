# error: line 7: math.log with a base is not compiled
import math
from postyp import Float64


def log_base(x: Float64) -> Float64:
    return math.log(x, 2.0)
