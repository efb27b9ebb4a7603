# error: the calls of NumPy's functions and array methods that create arrays in GPU code (np.empty, np.arange, a.copy(), np.sort, np.linspace, ...) are the typecheck's: all reported, with no echo of the calls they refuse
import numpy as np
from postc import kernel, thread_idx
from postyp import Float32, Out


@kernel
def k(x: Out[Float32[:]], y: Float32[:]) -> None:
    a = np.empty(4, dtype=np.float32)
    b = np.arange(4)
    c = y.copy()
    d = np.sort(y)
    e = np.linspace(0.0, 1.0, 4)
    f = np.zeros_like(y, 1, 2)
    x[thread_idx.x] = y[0] + np.sum(y)
