# error: line 9: an array local bound to arrays of two dtypes
import numpy as np
from postyp import Bool, Float64, Int64

def pick(n: Int64, f: Bool) -> Float64:
    if f:
        a = np.zeros(n)
    else:
        a = np.zeros(n, dtype=np.int32)
    return float(a[0])
