# error: the calls of `np.linalg.norm` compiled code refuses (counts of arguments, the order given twice, what is not an array of numbers of one or two axes, orders that are no constants, string orders of vectors, number orders of matrices) are the typecheck's: all reported, with no echo of the calls they refuse
import numpy as np
from postyp import Float64, Int64


def norms(a: Float64[:], m: Float64[:, :], c: Float64[:, :, :], x: Float64, k: Int64) -> Float64:
    b = np.linalg.norm()
    d = np.linalg.norm(a, 2, ord=1)
    e = np.linalg.norm(x)
    f = np.linalg.norm(c)
    g = np.linalg.norm(a, k)
    h = np.linalg.norm(a, "fro")
    n = np.linalg.norm(m, 2)
    p = np.linalg.norm(m, "nuc")
    q = np.linalg.norm(a, True)
    r = np.linalg.norm(a, np.inf) + np.linalg.norm(m, "fro") + np.linalg.norm(a, ord=-np.inf)
    return x
