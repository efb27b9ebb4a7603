"""A parameter assigned at the function's top level is a new variable
from there on, of the type of its value, as in CPython and Numba: an
integer parameter may become a float, a 2-D array a 1-D one, an Int32
array an Int64 copy, a read-only input a new array that may be written.
The caller's argument is untouched. Bound inside a loop or a branch, the
parameter is one variable whose type joins the annotation's and the
values' (an Int64 bound a float in a branch is a Float64 throughout, the
argument converted on entry), as Numba unifies them."""
import numpy as np
from postyp import Float32, Float64, Int32, Int64


def log_bins(lo: Int64, hi: Int64, ratio: Float64, n: Int64) -> Int64:
    """cooltools' `_logbins_numba`: an integer parameter rebound to a
    float, then to an integer again."""
    n = np.log(hi / lo) / np.log(ratio)
    n = int(np.ceil(n))
    return n * 2


def column_totals(v: Float64[:, :]) -> Float64:
    """sgkit: a 2-D parameter rebound to the 1-D sums of its columns,
    then to a scaled copy; the argument keeps its values."""
    v = v.sum(axis=0)
    v = v * 2.0
    v[0] = -1.0
    return v[0] + v[-1]


def widened(indptr: Int32[:]) -> Int64:
    """scanpy: an Int32 array parameter rebound to its Int64 copy, which
    holds values the Int32 cannot."""
    indptr = indptr.astype(np.int64)
    indptr[0] = 4294967296
    return indptr[0] + indptr[-1]


def halved(x: Float32, k: Int64) -> Float64:
    """A Float32 parameter rebound to a Float64 sum, and a branch that
    binds it again (joined into the new variable's type)."""
    x = x + np.float64(0.5)
    if k > 0:
        x = x / 2
    for _ in range(k):
        x = x - 1.0
    return x


def reads_before(a: Float64[:]) -> Float64:
    """The value of the binding reads the parameter; reads after it see
    the new variable."""
    b = a[0]
    a = a[1:] * 10.0
    return b + a.sum()


def log_bins_branch(lo: Int64, hi: Int64, ratio: Float64, n: Int64) -> Int64:
    """cooltools' `_logbins_numba`: `n` is given, or computed (a float)
    from the ratio in a branch; `int(n)` after either."""
    if ratio != 0:
        if n != 0:
            return -1
        n = np.log(hi / lo) / np.log(ratio)
    elif n == 0:
        return -2
    return int(n) * 3


def halvings(n: Int32, k: Int64) -> Float64:
    """An Int32 parameter halved in a loop: a Float64 variable."""
    for _ in range(k):
        n = n / 2
    return n


def unpacked(dist: Float64[:], k: Int64) -> Float64:
    """MNE's `_nearest_tri_edge`: an array parameter rebound to a scalar by
    an unpacking at the top level."""
    ii = k % len(dist)
    p, dist = ii * 2, dist[ii] * 10.0
    return p + dist
