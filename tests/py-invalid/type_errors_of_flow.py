# error: line 6: a body that can reach its end (an `if` without `else`); line 13: one whose `while True` breaks; line 22: a local that may be `None` indexed; line 23: an argument of a NumPy function that may be `None`; line 24: a keyword argument of an array method that may be `None`; line 30: a `for` over `None`, with errors in its body (lines 31, 32); line 38: a tuple among the names of an `np.ndindex` loop, after an error (line 37), with an error in its body (line 39)
import numpy as np
from postyp import Float64, Int64


def sign(x: Int64) -> Int64:
    if x > 0:
        return 1
    elif x < 0:
        return -1


def first_negative(a: Float64[:]) -> Int64:
    i = 0
    while True:
        if a[i] < 0.0:
            break
        i += 1


def optional(a: Float64[:, :], w: Float64[:] | None = None, x: Float64 | None = None, k: Int64 | None = None) -> Float64:
    s = w[0]
    t = np.sqrt(x)
    u = a.sum(axis=k)
    return s + t


def over_none(n: Int64) -> Float64:
    s = 0.0
    for v in None:
        s += undefined_one
        s = s * None
    return s


def nested(n: Int64) -> Int64:
    s = undefined_two
    for (i, j), k in np.ndindex(n, n):
        s += undefined_three
    return s
