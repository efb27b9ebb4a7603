# error: keywords and * arguments of casts to a dtype (postyp's, type(x) of a scalar parameter, a local bound to a dtype), and print of more values that certainly may be None (calls, locals not tested) than it prints at once, are the typecheck's: all reported
import numpy as np
import postyp
from postyp import Float64


def maybe(x: Float64) -> Float64 | None:
    if x > 0.0:
        return x
    return None


def f(x: Float64) -> Float64:
    a = postyp.Float64(x, k=1)
    b = postyp.Float64(*[x])
    c = type(x)(1, k=2)
    d = type(x)(*[1])
    T = np.float32
    e = T(x, k=1)
    print(maybe(x), maybe(x), maybe(x), maybe(x), maybe(x))
    print(maybe(x), maybe(x), maybe(x), maybe(x))
    return x


def g(x: Float64, a: Float64 | None, b: Float64 | None) -> Float64:
    print(a, b, a, b, a)
    if a is not None:
        print(a, b, a, b, a)
    return x
