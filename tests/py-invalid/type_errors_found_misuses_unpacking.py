# error: a tuple display among the values of an unpacking binds a tuple to its name, which the typecheck refuses where the name holds a number or an array (a local or an array parameter), as it refuses `x = (1, 2)`; and a list local of strings (a display, a comprehension), which compiled code leaves unbound
import numpy as np
from postyp import Float64, Int64


def fib(n: Int64) -> Int64:
    a, b = (0, (1, 2))
    for _ in range(n):
        a, b = b, a + b
    return a


def swap(x: Float64[:], y: Float64[:]) -> Float64:
    if len(x) < len(y):
        x, y = ((np.zeros(2), 1), x)
    return y[0]


def swapped(x: Float64[:], k: Int64) -> Float64:
    y = x
    z = np.zeros(x.shape[0])
    y, z = (z, (1, 2))
    y[k] = 7.0
    return y.sum()


def twice(n: Int64) -> Int64:
    a, b = (0, 1)
    a, b = (n, (1, n))
    return a


def strings(values: Float64[:], n: Int64) -> Int64:
    below = ["s" for i in range(n) if values[i] < 1.0]
    twice = [v + 1 for v in below]
    xs = ["a", "b"]
    t = 0
    for x in xs:
        t += 1
    ys = []
    for i in range(n):
        ys.append("c")
    return t + len(twice) + len(ys)
