# error: lines 19 and 21: what `tail` and `ends` return may be views of their input; a view of a copy (line 23) and a new array (line 25) are writable
import numpy as np
from postyp import Float64


def tail(a: Float64[:]) -> Float64[:]:
    b = a[1:]
    return b


def ends(a: Float64[:]):
    return tail(a), a * 2.0


def f(x: Float64[:]) -> Float64:
    t = tail(x)
    u, w = ends(x)
    c = tail(x.copy())
    t[0] = 1.0
    d = (x * 3.0)[1:]
    u[0] = 2.0
    d[0] = 1.0
    c[0] = 3.0
    e = np.zeros(4)
    tail(e)[0] = 4.0
    return t[0] + u[0] + c[0] + d[0] + e[1]
