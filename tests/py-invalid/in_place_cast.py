# error: line 8: an in-place operator NumPy's same_kind casting refuses (Float64 into Int64)
import numpy as np
from postyp import Int64


def bump(n: Int64) -> Int64[:]:
    a = np.zeros(n, dtype=np.int64)
    a += 1.5
    return a
