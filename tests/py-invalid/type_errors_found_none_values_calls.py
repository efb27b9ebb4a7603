# error: `None` passed where compiled code needs a number is the typecheck's: to a `math`, NumPy or `postc.math` function (`bins=` of `np.histogram`, `axis=` of `np.roll`), as the value of an `and`, a cast, a list's `append` or a parameter that cannot be `None`; `None` as a dtype is no dtype; a local bound only to `None` and updated has no type
import math

import numpy as np
import postc
from numpy import exp
from postyp import Bool, Float64, Int64


def g(x: Float64) -> Float64:
    return 2.0 * x


def h(x: Float64) -> tuple[Float64, Float64]:
    return x, x


def pair(x: Float64) -> tuple[Float64, Float64]:
    return (x, None)


def libraries(x: Float64) -> Float64:
    a = math.sqrt(None)
    b = np.exp(None)
    c = exp(None)
    d = np.float64(None)
    e = Int64(None)
    f = postc.math.sqrt(None)
    u = np.linspace(0.0, 1.0, None)
    return x + a + b + c + d + e + f


def arrays(a: Float64[:], x: Float64) -> Bool:
    e = np.identity(None)
    h = np.histogram(a, bins=None)
    r = np.roll(a, 1, axis=None)
    return (x > 0.0) and None


def dtypes(x: Float64) -> Float64:
    z = np.zeros(3, dtype=None)
    eps = np.finfo(None).eps
    return x + eps


def appended(n: Int64) -> Int64:
    xs = [1, 2]
    xs.append(None)
    return n


def arguments(x: Float64) -> Float64:
    y = g(None)
    a, b = h(None)
    return g(x=None) + y + a


def updated(x: Float64[:]) -> Float64:
    s = None
    for i in range(len(x)):
        s += x[i]
    return s
