# error: the calls of `np.outer` and `np.roll` compiled code refuses (counts of arguments, one given twice, what is not an array of numbers or not of one axis, axes out of range or no constants, shifts that are not integers) are the typecheck's: all reported, with no echo of the calls they refuse
import numpy as np
from postyp import Float64, Int64


def outers(a: Float64[:], m: Float64[:, :], x: Float64) -> Float64:
    b = np.outer(a)
    c = np.outer(a, m)
    d = np.outer(x, a)
    return x


def rolls(a: Float64[:], m: Float64[:, :], x: Float64, k: Int64) -> Float64:
    b = np.roll(a, 1, 0, 2)
    c = np.roll(a, 1, shift=2)
    d = np.roll(a)
    e = np.roll(x, 1)
    f = np.roll(m, 1, axis=2)
    g = np.roll(m, 1, axis=k)
    h = np.roll(m, 1, axis=1.0)
    n = np.roll(a, 1.5)
    p = np.roll(a, k, axis=-1)
    return x
