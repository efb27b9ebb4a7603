# error: the ranges held in locals whose arguments compiled code refuses (not integers, a step of zero, in either arm of a conditional) the tuples indexed with slices or `...` among several indices, and the NumPy ufuncs of an array beside a tuple or a string are the typecheck's
import numpy as np
from postyp import Float64, Int64


def held(n: Int64, k: Int64, direction: Int64) -> Int64:
    t = 0
    r = range(1j, n, k)
    for i in r:
        t += i
    q = range(0, np.zeros(3), k)
    for i in q:
        t += i
    order = range(n) if direction == 1 else range(2.5, -1, -1)
    for i in order:
        t += i
    z = range(0, n, 0)
    for i in z:
        t += i
    return t


def tuple_indices(j: Int64) -> Float64:
    t = (np.zeros(2), 1)
    c = t[:, j]
    d = (1, 2)[::-1, ::-2]
    e = (1, 2)[...]
    f = (1.0, 2.0)[..., 0]
    return 1.0


def ufuncs(a: Float64[:]) -> Float64[:]:
    b = np.minimum(a, (1, 2))
    c = np.hypot((1.0, 2.0), a)
    d = np.maximum(a, "s")
    return a
