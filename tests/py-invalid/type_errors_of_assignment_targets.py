# error: assignments to what compiled code does not store into, and augmented assignments through an array index, are the typecheck's, every one, inside refused statements too
import numpy as np
from postyp import Float64, Int64


def targets(n: Int64, a: Float64[:]) -> Float64:
    a.shape = (n,)
    x = a.size = 3
    idx = np.arange(n)
    a[idx] += 1.0
    f(n).x = 2
    a.real += 1.0
    y, a.shape = 1, 2
    with open("f") as g:
        a.ndim = 0
        a[idx] -= 2.0
    z = 1.0
    z = "s"
    return z


def stores_of_refused(x: Float64, b: Float64[:]) -> Float64:
    b.shape, b[x] = 1, 2.0
    x.real, x[0] = 1.0, 2.0
    return x
