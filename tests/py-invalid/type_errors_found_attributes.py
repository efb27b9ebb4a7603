# error: the attributes and methods of values that have none in compiled code are the typecheck's: an attribute of a number, a tuple or an array passed as an argument, printed, indexed or given a method (`shape`, `T`, `ndim`, `real`), `x.shape[k]` of a number given to `range`, and the array methods called of what the lowering does not call them of (`.sort()` of a number or a string, `.var()` of a tuple or of an attribute a number does not have, `.dot` of what is no local)
import numpy as np
from postyp import Float64, Int64


def attributes_as_arguments(a: Float64[:], m: Float64[:, :], x: Float64, n: Int64) -> Float64:
    t = (1, 2)
    print(x.shape)
    print(t.T)
    print(n.ndim)
    print(a.foo)
    print(t.real)
    print(len(x.shape))
    print(t.T[0])
    print(t.T.sum())
    return np.dot(x.T, a) + np.sum(m.T)


def shape_in_range(x: Float64, z: complex) -> Int64:
    s = 0
    for i in range(x.shape[0]):
        s += i
    for j in range(z.shape[1]):
        s += j
    return s


def methods_of_other_receivers(a: Float64[:], x: Float64) -> Float64:
    r = 2.5
    r.sort()
    x.argsort()
    (1, 2).var()
    "abc".sort()
    None.sort()
    r.std()
    x.T.var()
    np.zeros(3).dot(a)
    return (a + 1.0).dot(a)
