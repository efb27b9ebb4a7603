# error: line 7: call of 'np.median' from compiled code: numpy is a CPython boundary import
import numpy as np
from postyp import Float64


def middle(x: Float64) -> Float64:
    return np.median(x)
