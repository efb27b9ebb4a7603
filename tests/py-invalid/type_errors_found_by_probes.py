# error: programs the frontend fuzz target and the misuse probe found the lowering alone refused, now the typecheck's: a step of `-0`, a call of a member of a namespace's member, a call of a number, a local only updated, locals whose bindings read one another, the dtype of what is not an array local, `None` as `np.roll`'s shift, a starred expression on its own, NumPy names and functions read as values, undefined names in the value a method is called of
import math
import numpy as np
import postc.math
from postyp import Float64, Int64


def steps(x: Float64[:]) -> Float64:
    a = x[::-0]
    return a[0] + x[1:5:-0][0]


def members(x: Float64) -> Float64:
    return postc.m.ohatlg(x) + math.foo.bar(x)


def called_number(i: Int64) -> Int64:
    t = 42()
    return i


def updated(v: Float64[:]) -> Float64:
    result *= v[0]
    return v[0]


def swapped(x: Float64[:]) -> Float64:
    if len(p) < len(q):
        p, q = q, p
    return p[0] + q[0]


def dtypes_and_shifts(a: Float64[:], n: Int64) -> Float64:
    b = np.ones(n, 2.5.dtype)
    c = np.zeros(n, dtype=(a + 1.0).dtype)
    return np.roll(a, shift=None)[0] + b[0] + c[0]


def starred_return(a: Float64[:]) -> Float64:
    found = a[0]
    return *found


def unknown_numpy(n: Int64) -> Int64:
    m = np.loreturn - 2
    f = np.arctan2
    return n + np.newaxes


def receivers(a: Int64[:], t: Int64) -> Int64:
    return (a > t).sum() + (undefined_one > t).sum() + (a + undefined_two).max()
