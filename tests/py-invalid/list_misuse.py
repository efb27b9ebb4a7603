# error: line 10: a list bound to another name; line 11: a method other than append; line 16: a list never given a number; line 22: a list that holds a tuple; line 29: append in a parallel prange loop
import numpy as np
from postc import prange
from postyp import Float64, Int64


def f(n: Int64) -> Float64:
    xs = [1.0]
    xs.append(2.0)
    ys = xs
    xs.pop()
    return xs[0]


def g(n: Int64) -> Int64:
    zs = []
    return len(zs)


def h(a: Float64[:]) -> Float64:
    ps = [0.0]
    ps.append((a[0], a[1]))
    return ps[0]


def par(n: Int64) -> Int64:
    xs = [0]
    for i in prange(n):
        xs.append(i)
    return len(xs)
