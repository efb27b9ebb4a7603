"""Lists of numbers that grow by `append`, as Numba kernels build them:
`xs = [x0]` or `ys = []`, `append` in a loop, `xs[-1]`, `len(xs)`, `for x
in xs`, `xs[i] = v`, and `np.array(xs)` at the end. The elements share
one dtype, joined from every element and appended value as `np.array`
joins them; the buffer doubles when full."""
import numpy as np
from postyp import Float32, Float64, Int64


def log_thin(xs: Float64[:], min_log10_step: Float64) -> Float64[:]:
    """cooltools' `_log_thin`: the elements of a sorted array spaced at
    least a ratio apart, its last element always kept."""
    xs_thinned = [xs[0]]
    prev = xs[0]
    min_ratio = 10**min_log10_step
    for x in xs[1:]:
        if x > prev * min_ratio:
            xs_thinned.append(x)
            prev = x
    if xs_thinned[-1] != xs[-1]:
        xs_thinned.append(xs[-1])
    return np.array(xs_thinned)


def evens(n: Int64) -> Int64[:]:
    """An empty list typed by what is appended; read by a loop, written
    by index, grown again, copied by `np.asarray`."""
    out = []
    for i in range(n):
        if i % 2 == 0:
            out.append(i)
    total = 0
    for v in out:
        total += v
    out.append(total)
    out[0] = len(out)
    return np.asarray(out)


def mixed(n: Int64) -> Float64:
    """`[1]` appended floats holds floats: its first element reads 1.0."""
    xs = [1]
    for i in range(n):
        xs.append(i * 0.5)
    return xs[0] + xs[len(xs) - 1] + xs[-1]


def rebuilt(a: Float32[:], k: Int64) -> Float32[:]:
    """A list bound again to a new display in a loop starts over; a
    Float32 list converts with `dtype=`."""
    keep = [a[0]]
    for j in range(k):
        keep = [a[0] * 2]
        for x in a:
            if x > 0:
                keep.append(x + j)
    return np.array(keep, dtype=np.float32)


def past_end(n: Int64, i: Int64) -> Int64:
    """An index past the list's length panics, as CPython's IndexError,
    whatever room its buffer has."""
    xs = [0, 1]
    for k in range(n):
        xs.append(k)
    return xs[i]


def squares(n: Int64) -> Int64[:]:
    """A list comprehension over `range(n)`: a list local like a display
    grown by `append`; `i` is the comprehension's own."""
    i = -1
    sq = [i * i for i in range(n)]
    sq.append(len(sq))
    return np.array(sq) + i


def stepped(start: Int64, stop: Int64, step: Int64) -> Float64:
    """Every form of `range`, a condition, a float element; read by
    index, `len` and a `for` loop."""
    a = [0.5 * k for k in range(stop)]
    b = [k for k in range(start, stop)]
    c = [k - 1 for k in range(start, stop, step) if k % 3 != 0]
    total = 0.0
    for x in c:
        total += x
    if len(a) > 0:
        total += a[-1]
    if len(b) > 1:
        total += b[1] * 100
    return total + len(c) * 1000


def positives(a: Float64[:]) -> Float64[:]:
    """A comprehension over a 1-D array with a condition, empty when no
    element passes, then grown by `append`."""
    kept = [2.0 * x for x in a if x > 0]
    kept.append(-1.0)
    return np.array(kept)


def none_kept(n: Int64) -> Int64:
    """`[0 for i in range(0)]`: empty, its elements typed Int64 by the
    element expression all the same (pandas' `na_pos`)."""
    na_pos = [0 for i in range(0)]
    more = [n for j in range(n) if j > n]
    return len(na_pos) + len(more) * 10


def counts(values: Float64[:], limits: Int64[:]) -> Int64[:]:
    """A comprehension whose element reads the array and a comprehension
    over a list local; the name of the list may be the element's."""
    below = [limits[i] * 2 for i in range(len(limits)) if values[i] < 1.0]
    twice = [v + 1 for v in below]
    ones = [ones for ones in twice]
    return np.asarray(ones)
