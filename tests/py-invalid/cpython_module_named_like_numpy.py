# error: a module whose name only starts like NumPy's or Numba's is a CPython module of its own: its functions are CPython functions (found by the frontend fuzz target), not NumPy's
import numbanumpy as np
import numpyx
from postyp import Float64


def traced(a: Float64[:, :]) -> Float64:
    return np.trace(a) + numpyx.sum(a)
