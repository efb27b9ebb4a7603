# error: the calls of `np.searchsorted` compiled code refuses (a sorter, counts of arguments, the value or side given twice or missing, sides that are not `'left'` or `'right'`, what is not an array of real numbers of one axis, values that are tuples, text or complex) are the typecheck's: all reported, those in the blocks of refused statements too, with no echo of the calls they refuse
import numpy as np
from postyp import Complex128, Float64, Int64


def searches(a: Float64[:], m: Float64[:, :], x: Float64, z: Complex128) -> Int64:
    b = np.searchsorted(a, x, sorter=a)
    c = np.searchsorted(a, x, "left", 1)
    d = np.searchsorted(a, x, v=x)
    e = np.searchsorted(a)
    f = np.searchsorted(a, x, side="middle")
    g = np.searchsorted(m, x)
    h = np.searchsorted(a, (x, x))
    i = np.searchsorted(a, z)
    j = np.searchsorted(a, "x")
    try:
        n = np.searchsorted(m, x)
    except ValueError:
        n = 0
    return b + c + d + e + f + g + h + i + j + n
