# error: subscripts read as values where they are arguments of calls or the bases of other subscripts are refused by the typecheck as anywhere else, each once, with no echo in the calls that read them; a subscript assigned to is checked as well (and a write to an input array reported too)
import numpy as np
from postyp import Float64, Int64


def helper(x: Float64) -> Float64:
    return x


def tuple_arguments(x: Float64, i: Int64) -> Float64:
    t = (x, x)
    a = helper(t[2])
    b = abs(t[x])
    c = t[0:i][0]
    return a + b + c + helper(t[-3])


def array_arguments(a: Float64[:, :], x: Float64, i: Int64) -> Float64:
    b = helper(a[i, x])
    c = abs(a[x, i])
    d = a[i][x]
    a[i][i:x] = 1.0
    return b + c + d + np.sum(a[x:, :])
