# error: the `return`s of a function whose tuple result is unannotated that do not give what its first gives are the typecheck's, every one, inside refused statements and after other errors too
import numpy as np
from postyp import Float64, Int64


def mixed(x: Float64, a: Float64[:], n: Int64):
    if n > 0:
        return x, a
    if n > 1:
        return x
    if n > 2:
        return a, x
    if n > 3:
        return x, a, n
    if n > 4:
        return
    with open("f") as g:
        return None
    return x, (a, n)


def grouped(x: Float64, a: Float64[:], n: Int64):
    y = undefined_name + 1
    if n > 0:
        return x, (a, n)
    if n > 1:
        return x, a, n
    if n > 2:
        return x, ((a, n), n)
    if n > 3:
        return (x, a), n
    return x, (n, a)


def listed(n: Int64, a: Float64[:]):
    xs = [1.0, 2.0]
    ys = [3.0]
    if n > 0:
        return xs, a
    if n > 1:
        return a, xs
    while n > 5:
        return a, ys
    return xs, "text"


def widened(n: Int64, x: Float64, a: Float64[:, :]):
    if n > 0:
        return n, x
    if n > 1:
        return x, x
    if n > 2:
        return n, a
    return True, np.float32(1.0)


def caller(x: Float64, a: Float64[:], n: Int64) -> Float64:
    p, q = mixed(x, a, n)
    return p


def texts(x: Float64, n: Int64):
    if n > 0:
        return "a", n
    return x, n
