# error: the writes into input arrays are the typecheck's, each reported once beside the statement's other errors: stores into elements, views and through array indices, unpackings, augmented assignments and whole arrays updated in place and after other errors
import numpy as np
from postyp import Float64, Int64, Out


def stores(n: Int64, x: Float64[:], m: Float64[:, :], o: Out[Float64[:]]) -> Float64:
    t = undefined_name + 1.0
    x[0] = 1.0
    x[1:] = 2.0
    x[np.arange(2)] = 3.0
    m[0, np.arange(2)] = 4.0
    m[1][0] = 5.0
    x[0] = "text"
    o[0] = x[0]
    x[0], o[1] = 6.0, 7.0
    return t


def updates(x: Float64[:], y: Float64[:], m: Float64[:, :]) -> Float64:
    x[0] += 1.0
    x[1:] *= 2.0
    x += y
    x %= 2.0
    x[np.arange(2)] += 1.0
    m.T[0, 0] -= 1.0
    return x[0]

