# error: NumPy's reductions, `np.transpose` and the functions that make no array (`np.nanmax`, `np.searchsorted`) in GPU code are checked by the typecheck as anywhere else (what is not an array, keywords and arguments compiled code does not take, `None`), and a reduction that makes an array is refused there
import numpy as np
from postc import gpu
from postyp import Float64, Int64, Out


@gpu
def reductions(a: Float64[:], m: Float64[:, :], o: Out[Float64[:]], n: Int64) -> None:
    b = np.sum(n)
    c = np.sum(a, dtype=np.float32)
    d = np.sum(a, 0, 1, 2, 3)
    e = np.transpose(n)
    f = np.sum(None)
    g = np.sum(a, keepdims=True)
    h = np.sum(m, axis=0)
    k = m.max(axis=1)
    p = np.nanmax(3)
    q = np.searchsorted(a, None)
    o[0] = np.sum(a) + np.min(m[0], axis=0) + m.sum(axis=(0, 1)) + np.nanvar(a, ddof=1.5) + np.searchsorted(a, 1.0)
