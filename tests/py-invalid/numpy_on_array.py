# error: line 7: a NumPy ufunc of an array
import numpy as np
from postyp import Float64, Out


def softplus(x: Float64[:], y: Out[Float64[:]]) -> None:
    y[0] = np.log1p(np.exp(x))
