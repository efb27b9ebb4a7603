"""`prange` loops: iterations that may run on several threads, with
reductions (`+=`, `-=`, `*=`, `min`, `max`) combined in a fixed order."""
from postc import prange
from postyp import Complex128, Float64, Int32, Int64, Out


def sum_squares(n: Int64) -> Int64:
    """An integer sum: exact on any number of threads."""
    s = 0
    for i in prange(n):
        s += i * i
    return s


def fsum(a: Float64[:]) -> Float64:
    """A float sum of values whose partial sums are exact."""
    s = 0.0
    for i in prange(len(a)):
        s += a[i]
    return s


def diff(a: Int64[:]) -> Int64:
    """`-=`: the partials are differences, added up."""
    s = 1000
    for i in prange(len(a)):
        s -= a[i]
    return s


def product(n: Int64) -> Float64:
    """`*=` of powers of two: exact."""
    p = 1.0
    for i in prange(1, n + 1):
        p *= 2.0 if i % 3 == 0 else 0.5
    return p


def extremes(a: Float64[:]) -> Float64:
    """`min` and `max` in one loop; a temporary private to each iteration."""
    lo = 1e300
    hi = -1e300
    for i in prange(len(a)):
        x = a[i] * 2.0
        lo = min(lo, x)
        hi = max(hi, x)
    return hi - lo


def imin(a: Int32[:]) -> Int32:
    m = Int32(2147483647)
    for i in prange(len(a)):
        m = min(m, a[i])
    return m


def csum(n: Int64) -> Complex128:
    z = 0j
    for i in prange(n):
        z += complex(i, -i)
    return z


def stepped(start: Int64, stop: Int64, step: Int64) -> Int64:
    """Any step, negative ones included; empty ranges leave the sum."""
    s = 7
    for i in prange(start, stop, step):
        s += i
    return s


def squares(n: Int64, out: Out[Int64[:]]) -> None:
    """Writes to an array indexed by the loop variable."""
    for i in prange(n):
        out[i] = i * i


def rows(a: Float64[:, :], out: Out[Float64[:]]) -> Float64:
    """Nested: the inner `prange` runs serially in each outer iteration."""
    n, m = a.shape
    total = 0.0
    for i in prange(n):
        acc = 0.0
        for j in prange(m):
            acc += a[i, j]
        out[i] = acc
        total += acc
    return total


def checked(a: Int64[:], k: Int64) -> Int64:
    """Panics part-way when `k` indexes past the end."""
    s = 0
    for i in prange(len(a)):
        s += a[i] + a[i * k]
    return s


def row_total(a: Float64[:, :], i: Int64) -> Float64:
    """A `prange` of its own: serial when a chunk of another loop calls it."""
    s = 0.0
    for j in prange(a.shape[1]):
        s += a[i, j]
    return s


def by_calls(a: Float64[:, :], out: Out[Float64[:]]) -> Float64:
    """Each iteration calls a function that has a `prange` loop."""
    total = 0.0
    for i in prange(a.shape[0]):
        r = row_total(a, i)
        out[i] = r
        total += r
    return total


def nested_checked(a: Int64[:], n: Int64, m: Int64) -> Int64:
    """A panic in the inner loop of a nested `prange`, raised through the
    outer one with the serial loop's first failing index."""
    s = 0
    for i in prange(n):
        acc = 0
        for j in prange(m):
            acc += a[i * m + j]
        s += acc
    return s


def up_by_three(start: Int64, stop: Int64) -> Int64:
    """A constant step: each chunk runs its iterations in blocks, the
    last one shorter, and one block where the chunk is short."""
    s = 0
    for i in prange(start, stop, 3):
        s += i - start + 1
    return s


def down_by_seven(start: Int64, stop: Int64) -> Int64:
    """A constant negative step, in blocks as well."""
    s = 0
    for i in prange(start, stop, -7):
        s += start - i + 1
    return s


def huge_steps(stop: Int64) -> Int64:
    """A step of 2**56: a block's end past a counter of 2**62 would not
    fit an Int64, so there a block runs to the chunk's end."""
    s = 0
    for i in prange(0, stop, 72057594037927936):
        s += i // 72057594037927936 + 1
    return s


def fails_at(n: Int64, bad: Int64) -> Int64:
    """Divides by zero in iteration `bad`, some blocks into its chunk."""
    s = 0
    for i in prange(n):
        s += 1000 // (i - bad)
    return s


def halves(a: Float64[:], out: Out[Float64[:]]) -> None:
    """Names assigned before the loop and first thing in every iteration,
    read nowhere else (resampy's `time_register`): each iteration's own."""
    t = 0.0
    k = 0
    for i in prange(len(a)):
        t = a[i] * 0.5
        k = Int64(t)
        out[i] = t + k


def two_passes(a: Float64[:], out: Out[Float64[:]]) -> None:
    """Two `prange` loops over the same name, one after the other: the
    second binds `i` before its body reads it."""
    for i in prange(len(a)):
        out[i] = a[i] * 2.0
    for i in prange(len(a)):
        out[i] += 1.0


def interior(coord: Float64[:, :], out: Out[Float64[:, :]]) -> None:
    """datashader's `infer_interval_breaks_2d`: `j` counts a loop before
    the `prange` loop, an inner loop inside it and a loop after it; each
    binds it before reading it, so it is private to each iteration."""
    m, n = coord.shape
    for j in range(n):
        out[0, j] = coord[0, j]
    for i in prange(1, m):
        for j in range(1, n):
            out[i, j] = 0.25 * (coord[i - 1, j - 1] + coord[i - 1, j] + coord[i, j - 1] + coord[i, j])
    for j in prange(n):
        out[0, j] += 1.0
