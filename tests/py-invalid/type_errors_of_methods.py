# error: the methods compiled code does not call (of an array local, an element, a call's result; a list local's other than `append`, and `append` of other than one value or of what is not a number; `sum` of what is not a tuple; `postc.empty` of other than an integer length and a numeric dtype) are the typecheck's: every one reported, with the arguments' own errors, in the blocks of refused statements too
import numpy as np
import postc
from postyp import Float64, Int64


def methods(a: Float64[:], m: Float64[:, :], x: Float64, n: Int64) -> Float64:
    b = a.tolist()
    c = m[0].nonzero(undefined_arg)
    d = np.zeros(n).view(np.int64)
    xs = [1.0, 2.0]
    xs.extend([3.0])
    xs.append(1.0, 2.0)
    xs.append(x)
    with open("f") as h:
        e = a.item()
    return b + c + d + xs[0] + x


def sums(a: Float64[:], t: tuple[Float64, Float64], x: Float64) -> Float64:
    b = sum(a)
    c = sum(x)
    d = sum(t, 0.0, 1.0)
    e = sum()
    return b + c + d + e + sum(t)


def empties(n: Int64, x: Float64) -> Float64:
    from_value = postc.empty(n, n)
    of_text = postc.empty(n, str)
    of_float = postc.empty(x, Float64)
    of_three = postc.empty(n, Float64, 1)
    return from_value[0] + of_text[0] + of_float[0] + of_three[0]


def appends(a: Float64[:], x: Float64) -> Float64:
    ps = [0.0]
    ps.append((a[0], a[1]))
    ps.append(a)
    ps.append(x)
    return ps[0]
