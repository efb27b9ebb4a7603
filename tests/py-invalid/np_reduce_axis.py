# error: line 9: the axis is not a constant; line 10: an axis named twice in a tuple; line 11: the axis given twice (an axis out of bounds, lines 7, 8 and 12, raises NumPy's AxisError when the call runs)
import numpy as np
from postyp import Float64, Int64

def total(a: Float64[:, :], v: Float64[:], k: Int64) -> Float64:
    s = 0.0
    b = np.sum(a, axis=2)
    c = a.min(axis=-3)
    d = np.argmax(a, axis=k)
    e = np.sum(a, axis=(0, -2))
    f = np.mean(a, 0, axis=1)
    g = np.cumsum(v, axis=1)
    return s
