# error: the calls of NumPy's array functions and array methods whose typed arguments compiled code refuses (what is not an array, a fill value that is not a number, text dtypes, unknown and removed dtypes, axes that are no integer constants, out of range or named twice, reductions of text or orderings of complex numbers) are the typecheck's: all reported, with no echo of the calls they refuse
import numpy as np
import postyp
from postyp import Float64, Int64, Str


def creations(a: Float64[:, :], n: Int64, x: Float64, t: tuple[Int64, Int64]) -> Float64:
    b = np.zeros(n, dtype="U5")
    c = np.ones(n, np.float_)
    d = np.empty(n, dtype="flot64")
    e = np.full(n, a)
    f = np.full(t, t, np.int32)
    g = np.full(n, "s")
    h = np.zeros_like(x)
    k = np.full_like(a, a)
    m = a.astype(np.str_)
    q = np.full_like(a, 1.0, dtype="S3")
    p = np.ones(n, np.floaty)
    return x + b[0]


def rearrangements(x: Float64, t: tuple[Int64, Int64]) -> Float64:
    b = np.transpose(x)
    c = np.ravel(t)
    d = x.copy()
    e = np.empty_like(t, dtype=np.float64)
    f = np.zeros(3, dtype=Str)
    g = np.ones_like(x, postyp.Bytes)
    return x
