# error: the errors of calls are the typecheck's: what a call names (undefined, a variable, no such function of `postc.math`, `math` or a CPython module) and calls of POST functions (arguments that do not bind, `*` and `**` arguments, keywords where none are taken, a callee compiled code cannot call, arguments that give a generic function's parameter no type, argument types that do not fit, numbers that do not widen to a parameter that may be `None`), each reported, standing alone and in refused statements too, with no echo of the calls they refuse
import math

import numpy as np
import postc.math
import scipy
from postyp import Float32, Float64, Int32, Int64


def scale(x: Float64, k: Float64 = 2.0) -> Float64:
    return x * k


def total(a: Float64[:], n: Int64) -> Float64:
    return a[0] * n


def shift(x: Float64, by: tuple[Int64, Int64]) -> Float64:
    return x + by[0]


def filled(n: Int64, dtype: type[Float32]) -> Float64:
    return 1.0 * n


def gen(v):
    return v * 2.0


def opt(x: Float64, n: Int64 | None = None) -> Float64:
    if n is None:
        return x
    return x * n


def binding(x: Float64, xs: tuple[Float64, Float64]) -> Float64:
    scale(x, 1.0, 2.0)
    c = gen(x, x)
    d = gen(None)
    h = scale(*xs)
    k = scale(x, **xs)
    m = filled(3, np.float32)
    return c + d + h + k + m + opt(x, None) + opt(x, 3) + opt(x)


def types(x: Float64, n: Int64, a: Float64[:], b: Int32[:]) -> Float64:
    r = total(b, n)
    s = total(x, n)
    y = shift(x, (1, 2, 3))
    l = shift(x, (1, 2.5))
    j = scale(a, k=(1.0, 2.0))
    o = opt(x, x)
    return r + s + y + l + j + o + total(a, n)


def targets(x: Float64) -> Float64:
    with open("f") as fh:
        input(x)
    p = x(1.0)
    q = postc.math.nosuch(x)
    r = math.nosuch(x)
    s = scipy.special.gamma(x)
    t = math.atan2(y=x, x=x)
    return p + q + r + s + t
