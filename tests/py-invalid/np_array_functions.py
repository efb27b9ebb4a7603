# error: line 8: a side that is not 'left' or 'right'; line 9: a side that is not a constant; line 10: a ragged list; line 11: a list where a number was; line 12: 'fro' of a vector; line 13: an order that is not a constant; line 14: a matrix norm of order 1; line 15: np.sort of a matrix; line 16: a.sort() of an input; line 17: ddof= of nanmean; line 18: nanmin of complex numbers
import numpy as np
from postyp import Complex128, Float64, Int64

def uses(a: Float64[:], m: Float64[:, :], z: Complex128[:], s: Int64, side: Int64) -> Float64:
    t = 0.0
    b = a.copy()
    t += np.searchsorted(a, 1.0, side='middle')
    t += np.searchsorted(a, 1.0, side=side)
    r = np.array([[1.0, 2.0], [3.0]])
    q = np.array([1.0, [2.0, 3.0]])
    t += np.linalg.norm(a, 'fro')
    t += np.linalg.norm(a, s)
    t += np.linalg.norm(m, 1)
    u = np.sort(m)
    a.sort()
    t += np.nanmean(b, ddof=1)
    t += np.nanmin(z)
    return t
