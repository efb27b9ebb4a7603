# error: what GPU code cannot do whatever its types is the typecheck's: each whole-array expression refused whole (not its parts, nor the locals it binds), the first read of a module-level array, a list read as a value and one grown in a parallel `prange`, each beside the other errors of the function
import numpy as np
from postc import gpu, prange
from postyp import Float64, Int64, Out

TABLE = np.array([1.0, 2.0, 3.0])


@gpu
def scale(x: Float64[:], y: Out[Float64[:]], i: Int64) -> None:
    z = np.sqrt(x)
    w = np.where(x > 0.0, x, 0.0)
    v = -x
    u = x > 1.0
    t = np.clip(x, 0.0, 1.0)
    q = x[1:] + 1.0
    y[i] = z[i] + w[i] + v[i] + t[i] + q[i] + TABLE[i % 3] + TABLE[0] + undefined_one


@gpu
def conjugates(x: Float64[:], c: Out[Float64[:]], i: Int64) -> None:
    r = x.conj()
    c[i] = r[i] + (x * 2.0)[i]


def lists(n: Int64) -> Int64:
    xs = [0]
    for i in prange(n):
        xs.append(i)
    ys = xs
    zs = [1]
    for i in range(n):
        for j in prange(n):
            zs.append(j)
    return len(xs) + len(zs) + xs + undefined_two
