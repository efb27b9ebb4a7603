# error: a `for` loop over a value that holds an error (one the typecheck does not type) reports that error, and not also the loop's; a loop the typecheck refuses still has the errors in what it runs over reported
from postyp import Float64, Int64
import numpy as np


def g(x: Float64) -> Float64[:]:
    return np.zeros(3)


def f(n: Int64) -> Float64:
    s = 0.0
    for v in g(undefined_one):
        s += v
    for i, v in enumerate(g(undefined_two)):
        s += v
    for v in np.undefined_fn(3):
        s += v
    return s


def g2(n: Int64) -> Float64:
    s = 0.0
    for v in None:
        s += 1.0
    for v in np:
        s += 1.0
    for a, b in g(undefined_three):
        s += 1.0
    return s


def refused_loops(n: Int64, a: Float64[:]) -> Float64:
    s = 0.0
    for p in enumerate(g(undefined_four)):
        s += 1.0
    for i, j in range(n, g(undefined_five)[0]):
        s += 1.0
    order = range(n)
    for i, j in order:
        s += 1.0
    for p in zip(a, g(undefined_six), range(n)):
        s += 1.0
    for v, w in np.ndindex(n, len(g(undefined_seven))):
        s += 1.0
    return s
