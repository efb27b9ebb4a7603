# error: line 6: cannot store a Complex128 value into 'out', an Out[Float64[:]] array
from postyp import Float64, Complex128, Out


def fill(z: Complex128, out: Out[Float64[:]]) -> None:
    out[0] = z
