# error: line 7: an axis beyond the array's (NumPy's AxisError); line 8: an axis not a constant; line 9: a float shift; line 10: no shift
import numpy as np
from postyp import Float64, Int64


def f(a: Float64[:, :], k: Int64) -> Float64:
    b = np.roll(a, 1, axis=2)
    c = np.roll(a, 1, axis=k)
    d = np.roll(a, 1.5)
    e = np.roll(a)
    g = np.roll(a, -1, axis=-2)
    return b[0, 0] + c[0, 0] + d[0, 0] + e[0, 0] + g[0, 0]
