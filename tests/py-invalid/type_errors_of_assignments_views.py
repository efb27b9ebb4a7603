# error: the type errors of stores into views are the typecheck's: what is not an array sliced, indices, bounds and steps that are not integers (every one), text, arrays of more axes, of text or of complex numbers into real ones stored, inside refused statements and after other errors too; a write to an input array is reported as well
import numpy as np
from postyp import Float64, Int64, Out


def views(n: Int64, x: Float64, t: tuple[Float64, Int64], a: Float64[:], o: Out[Float64[:, :]]) -> Float64:
    b = np.zeros(n)
    x[1:] = 1.0
    t[0:1] = 2.0
    o[x:, 1.5] = 2.0
    o[0, ::x] = 1.0
    o[1:, :] = "text"
    o[0, :] = np.zeros((n, n))
    o[1, :] = np.zeros(n, dtype=np.complex128)
    a[x:] = 3.0
    b[1:] = 1.0 + "s"
    b[x:] = 1.0
    with open("f") as f:
        b[:x] = 2.0
    o[..., 0, 0] = "s"
    b[x:] += 1.0
    o[1:n, 0], b[:x] = 1.0, 2.0
    return x
