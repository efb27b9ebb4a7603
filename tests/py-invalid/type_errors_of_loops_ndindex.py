# error: the shapes and targets of `for` loops over `np.ndindex` are the typecheck's errors, each once
import numpy as np
from postyp import Float64, Int64


def shapes(a: Float64[:, :], n: Int64, x: Float64) -> Float64:
    s = 0.0
    for i, j, k in np.ndindex(a.shape):
        s += a[i, j]
    for i, j in np.ndindex(n, x):
        s += 1.0
    for idx in np.ndindex((n, 2.5)):
        s += 1.0
    for i, j in np.ndindex(n, n):
        s += a[i, j] + undefined_one
    for (i, j), k in np.ndindex(n, n):
        s += 1.0
    return s
