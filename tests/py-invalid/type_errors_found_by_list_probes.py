# error: programs the misuse probe found the lowering alone refused when a value is replaced by a list display, now the typecheck's: a list display cast to a parameter's type, given as an axis by position, returned in an inferred tuple, bound to an annotated local or as a list local's element, given as `M` of `np.eye`, a loop's name bound to rows of an array where it holds numbers elsewhere; an array as the decimals of `np.round`; and, found by the frontend fuzz target, an array returned where the result fixes an extent the array's is not known to be
import numpy as np
from postyp import Float64, Int32, Int64


def casts(k: Int64, a: Float64[:]) -> Int64:
    T = type(k)
    return type(k)([1.0, 2.0]) + T([1.0])


def axes(a: Float64[:, :]) -> Float64:
    return np.prod(a, [0])[0] + a.argmax([1]) + np.cumsum(a, [0])[0, 0]


def pair(a: Float64[:]):
    return ([1.0, 2.0], a[0])


def bound(n: Int64) -> Float64:
    t: Int32 = [1.0, 2.0]
    xs = [[1.0, 2.0], 3.0]
    return n + np.eye(n, [2])[0, 0]


def rows(a: Float64[:, :]) -> Float64:
    acc = 0.0
    for v in a.ravel():
        acc += v
    for v in a * 2.0:
        acc += 1.0
    return acc


def rounded(x: Float64) -> Float64:
    return np.round(x, np.zeros(3))


def fixed_rows(a: Int32[:, :]) -> Float64[2, :]:
    return a.astype(float)
