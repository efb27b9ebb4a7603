# error: writes through views of input arrays and of module-level arrays, bound in branches and loops, are the typecheck's; a local bound to a new array in every branch is written freely
import numpy as np
from postyp import Float64, Int64

TABLE = np.array([1.0, 2.0, 3.0])
GRID = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


def views(n: Int64, x: Float64[:], m: Float64[:, :]) -> Float64:
    if n > 0:
        v = x[1:]
    else:
        v = np.zeros(n)
    v[0] = 1.0
    w = np.zeros(n)
    if n > 1:
        w = x
    w[0] = 2.0
    r = m[0]
    r[1:] = 3.0
    c = np.ones(n)
    for i in range(n):
        c[i] = 4.0
        c = m[i]
    fresh = x.copy()
    fresh[0] = 5.0
    np.ravel(m)[0] = 6.0
    m.T[0, 1] = 7.0
    return v[0] + w[0] + undefined_name


def constants(n: Int64) -> Float64:
    TABLE[0] = 1.0
    GRID[1, :] = 2.0
    row = GRID[0]
    row[0] = 3.0
    t = np.zeros(3)
    if n > 0:
        t = TABLE
    t += 1.0
    GRID.T[0, 0] = 4.0
    copy = TABLE.copy()
    copy[0] = 5.0
    return copy[0]
