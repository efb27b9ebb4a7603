# error: `a.sort()` of read-only memory and read-only arrays given for `Out` parameters are the typecheck's; a generic helper that writes what a caller passes is refused in its instance, once
import numpy as np
from postyp import Float64, Int64, Out

TABLE = np.array([3.0, 1.0, 2.0])


def fill(out: Out[Float64[:]], value: Float64) -> None:
    for i in range(len(out)):
        out[i] = value


def both(a: Out[Float64[:]], b: Out[Float64[:]]) -> None:
    a[0] = b[0]


def write_first(a):
    a[0] = 1.0
    a[1:] += 2.0


def sorts(n: Int64, x: Float64[:], m: Float64[:, :], o: Out[Float64[:]]) -> Float64:
    x.sort()
    m[0].sort()
    TABLE.sort()
    v = x[1:]
    v.sort()
    o.sort()
    y = x.copy()
    y.sort()
    return y[0] + undefined_name


def out_arguments(n: Int64, x: Float64[:], o: Out[Float64[:]]) -> Float64:
    fill(x, 1.0)
    fill(x[1:], 2.0)
    fill(TABLE, 3.0)
    fill(o, 4.0)
    both(x, TABLE)
    fill(x, "text")
    fill(x.copy(), 5.0)
    write_first(x)
    write_first(o)
    return 1.0
