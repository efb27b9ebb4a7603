# error: line 10: the next iteration writes `y` after it was bound to the input; the write on line 15 only sees the new array (accepted)
import numpy as np
from postyp import Float64, Int64


def f(x: Float64[:], n: Int64) -> Float64:
    y = np.zeros(3)
    for i in range(n):
        if i > 0:
            y[0] = 1.0
        y = x
    z = x
    if n > 2:
        z = np.zeros(3)
        z[1] = 2.0
    return y[0] + z[1]
