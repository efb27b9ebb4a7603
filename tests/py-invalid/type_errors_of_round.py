# error: the type errors of calls of round are the typecheck's: all reported, with no echo of the calls they refuse
import numpy as np
from postyp import Bool, Complex128, Float64, Int64


def rounding(x: Float64, n: Int64, flag: Bool, z: Complex128, a: Float64[:]) -> Float64:
    p = round(np.bool_(flag))
    q = round(z) + 1
    r = round(a)
    s = round(x, n)
    u = round(len(a), -2)
    v = round(float(x), 30)
    w = round(np.int32(n), 2) + round(z, 2)
    y = round()
    k = round(x, 1, 2)
    return x + round(x, 2)


def standing(x: Float64, z: Complex128) -> Float64:
    round(z)
    np.exp("s")
    return x
