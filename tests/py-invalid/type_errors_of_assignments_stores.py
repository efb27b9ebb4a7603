# error: the type errors of stores into elements are the typecheck's: a number or a tuple indexed, more indices than axes, indices that are not integers, values an element does not hold, every one, inside refused statements and after other errors too; a write to an input array is reported as well
import numpy as np
from postyp import Float64, Int64, Out


def stores(n: Int64, x: Float64, t: tuple[Float64, Int64], a: Float64[:], o: Out[Float64[:, :]]) -> Float64:
    b = np.zeros(n)
    x[0] = 1.0
    t[1] = 2
    o[1, 2, 3] = 1.0
    o[x, 1] = 2.0
    o[0, 0] = "text"
    o[0, 1] = 1j
    o[1, 1] = b
    o[1, 0] = t
    a[x] = 3.0
    b[0] = 1.0 + "s"
    b[1] = "again"
    with open("f") as f:
        b[x] = 1.0
    o[0, 0] += 1j
    x[1] += 2.0
    o[1.5, 0] += 1.0
    b[0], b[x] = 1.0, 2.0
    return x
