# error: line 7: call of 'np.sqrt' from compiled code: numpy is a CPython boundary import (use postc.math.sqrt)
import numpy as np
from postyp import Float64


def root(x: Float64) -> Float64:
    return np.sqrt(x)
