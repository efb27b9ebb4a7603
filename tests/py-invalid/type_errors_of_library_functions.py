# error: the type errors of calls of Python's math functions and of NumPy's ufuncs on scalars are the typecheck's: all reported, with no echo of the calls they refuse
import math

import numpy as np
from numpy import fmod
from postyp import Bool, Complex128, Float64, Int64


def pymath(x: Float64, n: Int64, z: Complex128, a: Float64[:]) -> Float64:
    b = math.sqrt(x, x)
    c = math.trunc(np.float32(x)) + 1
    d = math.gcd(x, 2)
    e = math.gcd((1, 2), n)
    g = math.sqrt(z) * 2.0
    h = math.exp(a)
    k = math.floor("s")
    m = math.hypot(x)
    return x + math.sqrt(x)


def ufuncs(x: Float64, n: Int64, z: Complex128, flag: Bool) -> Float64:
    b = np.sqrt(x, x)
    c = np.exp("s") + 1.0
    d = np.exp((x, x))
    e = np.maximum(x, "s")
    g = np.floor(z)
    h = fmod(n, 2)
    k = np.negative(flag)
    m = np.sign(flag)
    return x + np.sqrt(x) + np.negative(n)
