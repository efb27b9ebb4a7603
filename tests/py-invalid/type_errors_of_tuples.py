# error: the errors of indexing, slicing and arithmetic of tuples read as values (indices out of range, not integers or not constant among elements of different types, the empty tuple, bounds of slices that are not constants, a zero step, `+` and `*` of what tuples do not take, elements compared that do not compare, a tuple ordered with what is not one) are the typecheck's errors, each once, with no echo where the refused values are read
from postyp import Bool, Float64, Int64


def indices(x: Float64, i: Int64) -> Float64:
    t = (x, i)
    a = t[2]
    b = t[-3]
    c = t[x]
    d = t[i]
    e = ()[i]
    f = t[t]
    return a + b + c + d + e + f


def slices(x: Float64, i: Int64) -> Float64:
    t = (x, x, x)
    u = t[i:]
    v = t[::0]
    w = t[:i:x]
    return u[0] + v[0] + w[0]


def arithmetic(x: Float64, i: Int64) -> Float64:
    t = (x, x)
    u = t + 1.0
    v = t * 2.5
    w = t - t
    y = 2 + t
    z = t * 100000
    return u[0] + v[0] + w[0] + y[0] + z[0]



def comparisons(x: Float64, i: Int64, z: complex) -> Bool:
    t = (x, i)
    a = t == (x, "s")
    b = t < (x, z)
    c = t < x
    d = (1, (2, 3)) <= (1, 4)
    return a and b and c and d
