# error: the values stored into arrays that compiled code refuses are the typecheck's: into a slice, a complex number into reals, a tuple not of numbers, of no common dtype or of a dtype the array does not hold, an array copied in GPU code; through an array index, a value of a dtype the array does not hold, an array of more axes than the indexed result, a tuple; `None` anywhere
import numpy as np
from postc import gpu
from postyp import Bool, Complex128, Float64, Int64, Out


def into_slices(a: Out[Float64[:]], b: Out[Float64[:, :]], z: Complex128) -> None:
    a[:] = z
    a[:] = (1, "x")
    a[:] = None
    a[:] = ()
    a[:] = (1j, 2)
    a[1:] = ("a", "b")
    a[0] = None
    b[0, ...] = 1j
    b[0] = (1.0, 2j)


@gpu
def copies(a: Out[Float64[:]], b: Float64[:]) -> None:
    a[:] = b
    a[1:] = (1.0, 2.0)


def through_array_indices(
    a: Out[Float64[:]], c: Out[Float64[:, :]], i: Int64[:], m: Bool[:], b: Float64[:, :], w: Complex128[:]
) -> None:
    a[i] = "x"
    a[m] = b
    a[i] = b
    a[i] = w
    a[i] = 1j
    a[i] = (1.0, 2.0)
    a[i] = None
    c[i, 0] = np.zeros((2, 2, 2))
    c[0, i] = (1.0, 2.0)
