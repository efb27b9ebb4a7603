# error: lines 8, 10, 12 and 17: writes through NumPy's reshape, transpose and ravel functions of an input reach the input; lines 14 and 16 write a copy (accepted)
import numpy as np
from postyp import Float64


def f(x: Float64[:, :]) -> Float64:
    b = np.reshape(x, (6,))
    b[0] = 1.0
    c = np.transpose(x)
    c[0, 0] = 2.0
    d = np.ravel(x)
    d[1] = 3.0
    e = x.flatten()
    e[0] = 4.0
    g = x.copy().T
    g[0, 0] = 5.0
    np.ravel(x)[2] = 6.0
    return b[0]
