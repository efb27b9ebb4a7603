"""Tuple results: functions returning several scalars and arrays (`return
a, b`), POST callers unpacking them (`lo, hi = min_max(a)`, in a loop too),
a function with a tuple result calling another, and panics inside them."""
import numpy as np
from postyp import Bool, Complex128, Float64, Int32, Int64


def min_max(a: Float64[:]) -> tuple[Float64, Float64]:
    """The smallest and largest element; an empty array panics."""
    lo = a[0]
    hi = a[0]
    for i in range(1, len(a)):
        if a[i] < lo:
            lo = a[i]
        if a[i] > hi:
            hi = a[i]
    return lo, hi


def floor_divmod(a: Int64, b: Int64) -> tuple[Int64, Int64]:
    """Python's a // b and a % b; b == 0 panics."""
    return a // b, a % b


def split_signs(a: Float64[:]) -> tuple[Float64[:], Float64[:], Int64]:
    """The non-negative parts, the magnitudes of the negative ones, and how
    many are non-negative."""
    pos = np.zeros(len(a))
    neg = np.zeros(len(a))
    n = 0
    for i in range(len(a)):
        if a[i] >= 0.0:
            pos[i] = a[i]
            n += 1
        else:
            neg[i] = -a[i]
    return pos, neg, n


def scaled(a: Float64[:], k: Float64) -> tuple[Float64[:], Float64, Bool]:
    """A new array a * k, k itself, and whether it grows."""
    return a * k, k, k > 1.0


def square_twice(z: Complex128, n: Int32) -> tuple[Complex128, Int32, Float64]:
    """z squared, n doubled, |z|."""
    return z * z, n + n, abs(z)


def range_width(a: Float64[:]) -> Float64:
    """max - min, through min_max."""
    lo, hi = min_max(a)
    return hi - lo


def count_and_total(a: Float64[:]) -> tuple[Int64, Float64]:
    """split_signs unpacked: the non-negative count and the sum of a."""
    pos, neg, n = split_signs(a)
    total = 0.0
    for i in range(len(a)):
        total += pos[i] - neg[i]
    return n, total


def digits_checksum(a: Int64[:], b: Int64) -> Int64:
    """Sum of q * 10 + r over floor_divmod(a[i], b), a call per iteration."""
    s = 0
    for i in range(len(a)):
        q, r = floor_divmod(a[i], b)
        s += q * 10 + r
    return s


def spread(a: Float64[:]) -> Float64:
    """Calls `bounds`, defined below it without a return annotation: its
    result's type, known from its first `return`, is known at the call."""
    lo, hi, at = bounds(a)
    return hi - lo + 0.0 * at


def bounds(a: Float64[:]):
    """The least and greatest element and where the least is, without a
    return annotation; an empty array panics here."""
    lo = a[0]
    hi = a[0]
    at = 0
    for i in range(1, len(a)):
        if a[i] < lo:
            lo = a[i]
            at = i
        hi = max(hi, a[i])
    return lo, hi, at


def normalized(a: Float64[:]):
    """A new array scaled into [0, 1] and where the least was: an
    unannotated tuple result calling another."""
    lo, hi, at = bounds(a)
    return (a - lo) / (hi - lo), at


def normalized_peak(a: Float64[:]) -> Float64:
    """Unpacks `normalized`, a tuple of an array and an Int64."""
    scaled, at = normalized(a)
    t = normalized(a)
    return scaled[len(a) - 1] + 10.0 * at + 100.0 * t[0][0]


def corrected(a: Float64[:], tol: Float64):
    """A tuple inside the tuple result, as cooltools' iterative correction
    reports `(converged, iterations)` beside its arrays."""
    out = a.copy()
    converged = False
    steps = 0
    for k in range(20):
        steps = k + 1
        out = out / 2.0
        if out.max() < tol:
            converged = True
            break
    report = (converged, steps)
    return out, out.sum(), report


def corrected_summary(a: Float64[:], tol: Float64) -> Float64:
    """Reads the inner tuple of `corrected` by indexing and by unpacking."""
    out, total, report = corrected(a, tol)
    r = corrected(a, tol)
    ok, steps = r[2]
    flag = 1000.0 if report[0] else 0.0
    return flag + 10.0 * steps + total + r[0][0] + (5.0 if ok else 0.0)
