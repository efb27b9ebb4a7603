# error: subscripts whose entries hold an array that compiled code takes as no array index are the typecheck's, read or stored into: an element (too many entries, an entry that is no integer, an augmented assignment), a view (an array among slices or fewer entries than axes); and constants stored into arrays or filling them that the array's dtype does not take
import numpy as np
from postyp import Bool, Float64, Int8, Int64, Out


def elements(a: Out[Float64[:, :]], m: Bool[:, :], i: Int64[:], j: Int64[:], x: Float64[:]) -> Float64:
    b = a[0, m]
    a[0, m] = 1.0
    a[i, j] = 1.0
    a[0, x] = 1.0
    a[i, i, i] = 1.0
    a[0, i] += 1.0
    a[i, i] += 1.0
    return 0.0


def views(a: Out[Float64[:, :, :]], i: Int64[:]) -> Float64:
    a[0, i] = 1.0
    a[0, i, 1:] = 1.0
    a[0, i] += 1.0
    return 0.0


def constants(o: Out[Int64[:]], b: Out[Int8[:]], i: Int64[:], n: Int64) -> None:
    o[1:] = 2.0
    o[0] = 2.5
    o[i] = 2.5
    b[1:] = 300
    c = np.full(n, 2.5, dtype=np.int64)
