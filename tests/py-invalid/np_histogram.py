# error: line 9: density=True; line 10: weights=; line 11: a bins estimator; line 12: float bins; line 13: Bool data; line 14: UInt64 data; line 15: a range whose dtypes would change when widened; line 16: a range of one number; line 17: bins of two axes; line 18: np.trace of a vector; line 19: np.eye of a float
import numpy as np
from postyp import Bool, Float32, Float64, Int8, UInt64


def uses(a: Float64[:], f: Float32[:], flags: Bool[:], u: UInt64[:], m: Float64[:, :]) -> Float64:
    t = 0.0
    n = 3
    h1, e1 = np.histogram(a, bins=4, density=True)
    h2, e2 = np.histogram(a, weights=a)
    h3, e3 = np.histogram(a, bins='auto')
    h4, e4 = np.histogram(a, bins=2.5)
    h5, e5 = np.histogram(flags, n)
    h6, e6 = np.histogram(u, n)
    h7, e7 = np.histogram(f, n, range=(Int8(0), Int8(5)))
    h8, e8 = np.histogram(a, n, range=(0.0,))
    h9, e9 = np.histogram(a, bins=m)
    t += np.trace(a)
    t += np.eye(2.5).sum()
    return t
