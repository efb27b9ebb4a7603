# error: the type errors of augmented assignments of numbers are the typecheck's: operands the operator does not take, results an element does not hold, every one, inside refused statements too
import numpy as np
from postyp import Float64, Int64, Out


def updates(n: Int64, x: Float64, o: Out[Float64[:]]) -> Float64:
    s = "text"
    s += 1
    x += "s"
    o[0] += "s"
    o[1] *= 2j
    b = np.zeros(n, dtype=np.int64)
    b[0] <<= 1.5
    with open("f") as f:
        x -= "t"
    return x


def whole_arrays(n: Int64, a: Float64[:], o: Out[Float64[:, :]]) -> Float64:
    b = np.zeros(n)
    b //= 2.0
    b += 1.0
    o[1:, :] **= 2.0
    a %= 3.0
    while n > 0:
        b[1:] <<= 1
        n -= 1
    return 1.0
