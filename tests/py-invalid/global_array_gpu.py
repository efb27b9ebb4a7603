# GPU code cannot make a module-level array.
import numpy as np
from postc import gpu
from postyp import Float64, Int64, Out

TABLE = np.array([1.0, 2.0, 3.0])


@gpu
def scale(x: Float64[:], out: Out[Float64[:]], i: Int64) -> None:
    out[i] = x[i] * TABLE[i % 3]
