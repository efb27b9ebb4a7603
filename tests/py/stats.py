"""Descriptive statistics: two-pass variance, scratch arrays from empty(),
min/max, argmax, normalization into an output."""
from postyp import Float64, Int64, Out
from postc import empty
from postc.math import sqrt


def mean(x: Float64[:]) -> Float64:
    """Arithmetic mean (len(x) > 0)."""
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s / len(x)


def variance(x: Float64[:]) -> Float64:
    """Population variance, two-pass."""
    m = mean(x)
    acc = 0.0
    for i in range(len(x)):
        d = x[i] - m
        acc += d * d
    return acc / len(x)


def stddev(x: Float64[:]) -> Float64:
    """Population standard deviation."""
    return sqrt(variance(x))


def value_range(x: Float64[:]) -> Float64:
    """max(x) - min(x) with the two-argument built-ins."""
    lo = x[0]
    hi = x[0]
    for i in range(1, len(x)):
        lo = min(lo, x[i])
        hi = max(hi, x[i])
    return hi - lo


def argmax(x: Float64[:]) -> Int64:
    """Index of the first largest element."""
    best = 0
    for i in range(1, len(x)):
        if x[i] > x[best]:
            best = i
    return best


def zscore(x: Float64[:], out: Out[Float64[:]]) -> None:
    """out = (x - mean) / stddev."""
    m = mean(x)
    sd = stddev(x)
    for i in range(len(x)):
        out[i] = (x[i] - m) / sd


def median_of_sorted_copy(x: Float64[:]) -> Float64:
    """Median: insertion-sort a scratch copy made with empty()."""
    n = len(x)
    t = empty(n, Float64)
    for i in range(n):
        v = x[i]
        j = i - 1
        while j >= 0 and t[j] > v:
            t[j + 1] = t[j]
            j -= 1
        t[j + 1] = v
    if n % 2 == 1:
        return t[n // 2]
    return (t[n // 2 - 1] + t[n // 2]) / 2.0


def moving_sum(x: Float64[:], w: Int64, out: Out[Float64[:]]) -> None:
    """out[i] = sum of x[i-w+1 .. i] through a prefix-sum scratch array."""
    n = len(x)
    p = empty(n + 1, Float64)
    p[0] = 0.0
    for i in range(n):
        p[i + 1] = p[i] + x[i]
    for i in range(n):
        lo = max(0, i - w + 1)
        out[i] = p[i + 1] - p[lo]


def count_above(x: Float64[:], t: Float64) -> Int64:
    """Number of elements strictly above t."""
    c = 0
    for i in range(len(x)):
        if x[i] > t:
            c += 1
    return c
