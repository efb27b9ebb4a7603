# error: the calls of `np.linspace` compiled code refuses (too many arguments, one given twice, no stop, an endpoint that is no constant, bounds that are not real numbers, a number of samples that is not an integer) are the typecheck's: all reported, with no echo of the calls they refuse
import numpy as np
from postyp import Bool, Complex128, Float64, Int64


def grids(a: Float64[:], x: Float64, z: Complex128, n: Int64, f: Bool) -> Float64:
    b = np.linspace(0.0, 1.0, 5, True, 1)
    c = np.linspace(0.0, 1.0, start=0.5)
    d = np.linspace(0.0, num=5)
    e = np.linspace(0.0, 1.0, 5, endpoint=f)
    g = np.linspace(a, 1.0)
    h = np.linspace(0.0, z)
    k = np.linspace(0.0, "s")
    m = np.linspace(0.0, x, 2.5)
    p = np.linspace(0.0, x, num=a)
    q = np.linspace(x, 1.0, n)
    return x
