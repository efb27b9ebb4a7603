# error: line 7: unknown dtype `np.float128` (and line 8: `"f8"`)
import numpy as np
from postyp import Float64, Int64

def make(n: Int64) -> Float64:
    a = np.zeros(n)
    b = np.zeros(n, dtype=np.float128)
    c = np.ones(n, "f8")
    return a[0]
