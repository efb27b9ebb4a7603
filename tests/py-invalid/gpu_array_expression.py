# error: line 8: a whole-array expression (it creates an array) in GPU code
from postc import gpu
from postyp import Float64, Out


@gpu
def scale(x: Float64[:], y: Out[Float64[:]]) -> None:
    z = x * 2.0
    y[0] = z[0]
