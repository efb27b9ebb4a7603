# error: line 7: a whole-array result (np.exp of an array) stored in one element
import numpy as np
from postyp import Float64, Out


def softplus(x: Float64[:], y: Out[Float64[:]]) -> None:
    y[0] = np.log1p(np.exp(x))
