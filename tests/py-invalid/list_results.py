# error: line 8: a list returned as an annotated array; line 12: a comprehension returned; line 19: a list where the first return has an array; line 24: a list in an annotated tuple; line 33: a POST caller of a function returning a list; line 39: a list inside a tuple inside the result
import numpy as np
from postyp import Float64, Int64


def annotated(n: Int64) -> Int64[:]:
    xs = [i for i in range(n)]
    return xs


def positions(n: Int64):
    return [0 for i in range(n)]


def mixed(n: Int64):
    xs = [i for i in range(n)]
    if n > 3:
        return np.array(xs), n
    return xs, n


def declared(n: Int64) -> tuple[Int64[:], Int64]:
    xs = [i for i in range(n)]
    return xs, n


def evens(n: Int64):
    xs = [i for i in range(n) if i % 2 == 0]
    return xs


def caller(n: Int64) -> Int64:
    ys = evens(n)
    return len(ys)


def inner(n: Int64):
    xs = [1 for i in range(n)]
    return n, (xs, n)
