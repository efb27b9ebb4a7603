# error: values written where compiled code takes another kind of thing are the typecheck's: a dtype argument that is a number, a tuple, a call, `None` or a local holding a value; `a.shape[k]` given to a call with an axis that is not a constant or out of range; a unary operator or a comparison on an array whose elements it refuses; a number updated in place by an array
import numpy as np
from postyp import Bool, Complex128, Float64, Int64, Out


def dtypes(n: Int64, x: Float64[:]) -> Float64:
    a = np.zeros(n, dtype=3)
    kind = (1, 2)
    b = np.empty(n, dtype=kind)
    c = x.astype(np.zeros(3))
    k = 2.5
    d = np.ones(n, k)
    e = np.ones(n, dtype=None)
    return a[0] + b[0] + c[0] + d[0] + e[0] + np.iinfo((1, 2)).min


def extents(m: Float64[:, :]) -> Int64:
    t = 0
    for j in range(m.shape[None]):
        t += j
    for j in range(m.shape[7]):
        t += j
    for j in range(2, m.shape[1, 2]):
        t += j
    return t + max(m.shape[2.5], 0)


def unary(p: bool, x: Float64[:]) -> bool:
    y = ~x
    z = +(x > 0.0)
    return p + y[0] & ~(p * np.zeros(3)) | z[0]


def compared(a: Float64[:], z: Complex128[:]) -> Bool[:]:
    c = 1j < a
    d = z >= a
    e = a < "s"
    return c


def updates(n: Int64, x: Float64[:], out: Out[Float64[:]]) -> Float64:
    s = 0.0
    for i in range(n):
        s += np.zeros(3)
    t = 1.0
    t *= x * 2.0
    out[0] -= x
    return s + t
