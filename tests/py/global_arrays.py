"""Module-level NumPy arrays read as constants: coefficient tables of
several dtypes and ranks (as pvlib's `spa.py` keeps them), read element by
element in loops, through views, by reductions and whole-array
expressions, and passed to other functions."""
import numpy as np
from postyp import Float32, Float64, Int32, Int64, UInt8, Bool, Out

SCALE = 2.5

# Periodic terms: amplitude, phase, frequency (as pvlib's L0, B0, ...).
TERMS = np.array([
    [175347046.0, 0.0, 0.0],
    [3341656.0, 4.6692568, 6283.07585],
    [34894.0, 4.6261, 12566.1517],
    [3497.0, 2.7441, 5753.3849],
    [3418.0, 2.8289, 3.5231],
])

# A 1-D table of integers, one written from a module constant and negative.
PRIMES = np.array([2, 3, 5, 7, 11, 13, -1])

# A 3-D table of Int32 given by `dtype=`.
CUBE = np.array([[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[9, 10], [11, 12]]], dtype=np.int32)

# Float32 by `dtype=` from mixed literals (an int among floats), and a
# table of tuples.
WEIGHTS = np.array((0.25, 0.5, 1, SCALE), dtype=np.float32)

# Bools, and UInt8 given as a string dtype.
MASK = np.array([True, False, True, True, False])
BYTES = np.array([[0, 255], [128, 7]], "uint8")

# Floats truncated to Int64 as NumPy stores them.
TRUNCATED = np.array([1.9, -2.7, 3.0], dtype=np.int64)

# Infinities and a NaN (as the package writes them).
EDGES = np.array([-1e999, 0.0, 1e999, (1e999 - 1e999)])


def sum_mult_cos_add_mult(arr: Float64[:, :], x: Float64) -> Float64:
    """pvlib's sum of a * cos(b + c * x) over the rows."""
    s = 0.0
    for row in range(arr.shape[0]):
        s += arr[row, 0] * np.cos(arr[row, 1] + arr[row, 2] * x)
    return s


def periodic(x: Float64) -> Float64:
    """The table passed to another function."""
    return sum_mult_cos_add_mult(TERMS, x)


def periodic_loop(x: Float64) -> Float64:
    """The table read in a loop, its extent by `.shape`."""
    s = 0.0
    for row in range(TERMS.shape[0]):
        a = TERMS[row, 0]
        b = TERMS[row, 1]
        c = TERMS[row, 2]
        s += a * np.cos(b + c * x)
    return s


def amplitude_total() -> Float64:
    """A reduction of a view (a column)."""
    return np.sum(TERMS[:, 0])


def row_of(i: Int64, out: Out[Float64[:]]) -> None:
    """A view (a row) bound to a local and copied out."""
    r = TERMS[i]
    for k in range(len(r)):
        out[k] = r[k]


def scaled_phases(out: Out[Float64[:]]) -> None:
    """A whole-array expression of a view."""
    out[:] = TERMS[:, 1] * 2.0 + 1.0


def prime_sum() -> Int64:
    """A reduction of a whole 1-D table, and its length."""
    return np.sum(PRIMES) + len(PRIMES)


def nth_prime(i: Int64) -> Int64:
    """An element, by a negative index too."""
    return PRIMES[i]


def cube_total() -> Int64:
    """A 3-D Int32 table summed by three loops."""
    t = 0
    for i in range(CUBE.shape[0]):
        for j in range(CUBE.shape[1]):
            for k in range(CUBE.shape[2]):
                t += Int64(CUBE[i, j, k]) * (i + 1)
    return t


def cube_plane(i: Int64) -> Int32:
    """A 2-D view of the 3-D table, reduced."""
    p = CUBE[i]
    return p.max() - p.min()


def weighted(x: Float32[:]) -> Float32:
    """A Float32 table against an argument."""
    s = Float32(0.0)
    for k in range(WEIGHTS.shape[0]):
        s += WEIGHTS[k] * x[k]
    return s


def mask_count() -> Int64:
    """A Bool table."""
    n = 0
    for k in range(len(MASK)):
        if MASK[k]:
            n += 1
    return n


def byte_total() -> Int64:
    """A UInt8 table."""
    t = 0
    for i in range(2):
        for j in range(2):
            t += Int64(BYTES[i, j])
    return t


def truncated(i: Int64) -> Int64:
    """Floats truncated to Int64."""
    return TRUNCATED[i]


def edge(i: Int64) -> Float64:
    """Infinities and NaN."""
    return EDGES[i]


def twice_first(x: Float64) -> Float64:
    """Two tables in one function, each made once."""
    return TERMS[0, 0] * x + Float64(PRIMES[0]) + TERMS[1, 0]
