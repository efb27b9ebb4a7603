# error: line 9: a comprehension inside another expression; line 13: two `for`s; line 17: a nested comprehension; line 23: a comprehension that reads its own name (line 22 its echo); line 28: a comprehension of arrays; line 34: a comprehension's name read after it
import numpy as np
from postyp import Float64, Int64


def count_even(n: Int64) -> Int64:
    evens = [i for i in range(n) if i % 2 == 0]
    return len(evens) + len(np.array([i for i in range(n)]))


def pairs(n: Int64) -> Int64:
    ps = [i * j for i in range(n) for j in range(n)]
    return len(ps)


def rows(n: Int64) -> Int64:
    rs = [[j for j in range(i)] for i in range(n)]
    return len(rs)


def again(a: Float64[:]) -> Float64:
    xs = [a[0]]
    xs = [x + 1.0 for x in xs]
    return xs[0]


def of_rows(m: Float64[:, :]) -> Int64:
    rs = [r for r in m]
    return len(rs)


def leaks(n: Int64) -> Int64:
    sq = [k * k for k in range(n)]
    return len(sq) + k
