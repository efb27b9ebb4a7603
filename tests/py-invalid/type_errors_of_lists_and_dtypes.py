# error: lists and local dtypes are the typecheck's: a list local never given a number, a list display bound to a name that is not a list local, a local dtype bound to another dtype than the binding before it (each such binding), a list local returned under an annotated result; each reported once, in blocks of refused statements too and after earlier errors, with nothing echoed
import numpy as np
from postyp import Float32, Float64, Int64


def lists(a: Float64[:], n: Int64, c: bool) -> Float64:
    zs = []
    ys = [a[0]]
    ys = undefined_one
    with open("f") as w:
        ws = []
        vs = [a[1], undefined_two]
        vs = n + 1
    t = [a[0]] + 1.0
    return a[0] + len(zs) + len(ws) + t


def dtypes(x: Float32, c: bool) -> Float64:
    d = np.int32
    if c:
        d = np.int64
    else:
        d = np.int32
    with open("f") as w:
        e = type(x)
        e = np.float64
        e = undefined_three
    z = np.zeros(3, dtype=d)
    return z[0] + undefined_four


def annotated(n: Int64) -> Int64[:]:
    xs = [i for i in range(n)]
    if n > 2:
        return xs + undefined_seven
    with open("f") as w:
        ys = [n]
        return ys
    return xs
