# error: the calls of `np.round` of scalars compiled code refuses (counts of arguments, decimals that are no integer constant or beyond a float's exponent, what is not a number, integers to negative decimals, complex numbers) are the typecheck's: all reported, with no echo of the calls they refuse
import numpy as np
from postyp import Complex128, Float64, Int64


def rounding(x: Float64, n: Int64, z: Complex128, k: Int64, t: tuple[Float64, Float64]) -> Float64:
    a = np.round(x, 1, 2)
    b = np.round(x, k)
    c = np.round(x, 1.5)
    d = np.round(x, 400)
    e = np.round("s")
    f = np.round(t)
    g = np.round(n, -1)
    h = np.round(z)
    m = np.round(x, 2) + np.round(n) + np.around(x)
    return x
