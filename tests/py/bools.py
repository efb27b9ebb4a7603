"""Boolean logic: and/or/not, truth tables, Bool arrays in and out, numeric
conditions, masks from chained comparisons."""
from postyp import Bool, Int64, Float64, Out


def implies(a: Bool, b: Bool) -> Bool:
    """a -> b."""
    return not a or b


def majority(a: Bool, b: Bool, c: Bool) -> Bool:
    """At least two of three."""
    return (a and b) or (a and c) or (b and c)


def xor(a: bool, b: bool) -> bool:
    """Exclusive or as a != b."""
    return a != b


def count_true(m: Bool[:]) -> Int64:
    """Number of true elements."""
    c = 0
    for i in range(len(m)):
        if m[i]:
            c += 1
    return c


def range_mask(x: Float64[:], lo: Float64, hi: Float64, m: Out[Bool[:]]) -> None:
    """m[i] = lo <= x[i] < hi (NaN gives false)."""
    for i in range(len(x)):
        m[i] = lo <= x[i] < hi


def all_true(m: Bool[:]) -> Bool:
    """Conjunction of the elements, stopping at the first false."""
    for i in range(len(m)):
        if not m[i]:
            return False
    return True


def any_nonzero(a: Int64[:]) -> Bool:
    """An element is non-zero (a number used as a condition)."""
    r = False
    i = 0
    while i < len(a):
        if a[i]:
            r = True
            break
        i += 1
    return r


def is_nan(x: Float64) -> Bool:
    """x != x."""
    return x != x


def truthy(x: Float64) -> Int64:
    """1 when x is non-zero (NaN counts), else 0, via `if x:`."""
    if x:
        return 1
    return 0


def both_positive(a: Int64, b: Int64) -> Bool:
    """a > 0 and b > 0, with short-circuiting."""
    return a > 0 and b > 0


def select_mask(m: Bool[:], a: Float64[:], b: Float64[:], out: Out[Float64[:]]) -> None:
    """out[i] = a[i] if m[i] else b[i]."""
    for i in range(len(m)):
        out[i] = a[i] if m[i] else b[i]


def unread_count(mask: Bool[:], n: Int64) -> Int64:
    """A count nothing reads: its loads may go, their bounds checks stay."""
    count = 0
    for k in range(n):
        count += Int64(mask[k])
    return n


def flagged(flag: Int64, x: Float64) -> Int64:
    """In a condition, `and`/`or` read their operands' truth: an integer
    flag as CPython reads it (trackpy's `if flag and cands[j] >= 0`)."""
    if flag and x >= 0:
        return 1
    while flag or x > 10.0:
        return 2
    return 3 if (flag and x) else 4
