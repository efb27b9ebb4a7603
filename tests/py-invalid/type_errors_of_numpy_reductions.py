# error: the reductions and running sums of NumPy whose typed arguments compiled code refuses (what is not an array, axes that are no integer constants, tuples where one axis is taken, axes out of range, named twice or some of several, text, orderings of complex numbers) are the typecheck's: all reported, with no echo of the calls they refuse
import numpy as np
from postyp import Complex128, Float64, Int64


def reductions(a: Float64[:, :], c3: Float64[:, :, :], z: Complex128[:], x: Float64, k: Int64) -> Float64:
    b = np.sum(x)
    c = a.cumsum(axis=(0, 1))
    d = a.argmax(axis=(0,))
    e = a.sum(axis=1.5)
    f = a.max(axis=k)
    g = a.sum(axis=(0, 0))
    h = a.mean(axis=(0, 2))
    m = c3.sum(axis=(0, 1))
    p = np.max(z)
    q = z.argmin()
    r = np.cumsum(x)
    return x


def more(a: Float64[:], x: Float64) -> Float64:
    b = a.sum(axis=3) if x > 0.0 else 0.0
    c = np.sum(a, axis=(0, 1))
    e = np.sum(a, keepdims=x)
    return x


def optional(a: Float64[:, :], k: Int64 | None = None, x: Float64 | None = None) -> Float64:
    b = a.sum(axis=k)
    c = np.transpose(x)
    return 0.0
