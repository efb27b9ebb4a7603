# error: the type errors of stores through array indices are the typecheck's: what is not an array indexed, indices not of integers or Bools, arrays of no axes, masks of more axes than the array, inside refused statements and after other errors too; a write to an input array is reported as well
import numpy as np
from postyp import Float64, Int64, Out


def scatters(n: Int64, x: Float64, a: Float64[:], o: Out[Float64[:, :]], z: Out[Float64[()]]) -> Float64:
    idx = np.arange(n)
    x[idx] = 1.0
    o[np.zeros(n)] = 2.0
    z[idx] = 3.0
    o[np.zeros((2, 2, 2)) > 0.0] = 1.0
    a[np.zeros(n)] = 3.0
    b = np.zeros(n) + "s"
    b = np.zeros(n)
    b[np.ones(n)] = 1.0
    with open("f") as f:
        b[np.ones(n)] = 2.0
    o[idx] = 1.0
    return x
