# error: line 6: `np.finfo` of an integer dtype, and an attribute `np.iinfo` lacks
import numpy as np
from postyp import Float64

def step() -> Float64:
    return np.finfo(np.int32).eps + np.iinfo(np.int8).dtype
