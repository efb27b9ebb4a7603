# error: line 7: np.arctan2 takes two arguments
import numpy as np
from postyp import Float64


def angle(y: Float64) -> Float64:
    return np.arctan2(y)
