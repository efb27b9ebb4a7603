# error: the calls of `np.array` compiled code refuses (counts of arguments, a dtype given twice or unknown, a ragged list or none, elements that are arrays, tuples or text, complex numbers where the dtype is not) are the typecheck's: all reported, with no echo of the calls they refuse
import numpy as np
from postyp import Complex128, Float64, Int64


def arrays(a: Float64[:], x: Float64, z: Complex128, t: tuple[Int64, Int64]) -> Float64:
    b = np.array()
    c = np.array([1.0], np.float64, np.float32)
    d = np.array([1.0, x], np.float64, dtype=np.float64)
    e = np.array([x, 2.0], dtype="flot")
    f = np.array([[1.0, 2.0], [x]])
    g = np.array([[1.0, 2.0], x])
    h = np.array([x, [1.0]])
    k = np.array(a)
    m = np.array([a, a])
    n = np.array([t, t])
    p = np.array([x, "s"])
    q = np.array([x, z], dtype=np.float64)
    r = np.array(x)
    s = np.array([1, 2], np.float_)
    return x
