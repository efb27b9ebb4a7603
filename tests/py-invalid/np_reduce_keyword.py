# error: line 6: np.sum takes no keyword where= in compiled code (and line 7: a scalar is not an array)
import numpy as np
from postyp import Float64

def total(a: Float64[:, :], x: Float64) -> Float64:
    s = np.sum(a, axis=0, where=True)
    return np.max(x)
