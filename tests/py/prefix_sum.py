"""Scans: inclusive and exclusive prefix sums, suffix sums with a negative
range step, a running maximum, and in-place differencing."""
from postyp import Int16, Int32, Int64, UInt16, Float64, Out


def inclusive_scan(a: Out[Int64[:]]) -> None:
    """a[i] += a[i-1], in place."""
    for i in range(1, len(a)):
        a[i] += a[i - 1]


def exclusive_scan(x: Int32[:], out: Out[Int32[:]]) -> None:
    """out[i] = x[0] + ... + x[i-1]."""
    acc = Int32(0)
    for i in range(len(x)):
        out[i] = acc
        acc += x[i]


def suffix_sum(x: Float64[:], out: Out[Float64[:]]) -> None:
    """out[i] = x[i] + ... + x[n-1], walking backwards with step -1."""
    acc = 0.0
    for i in range(len(x) - 1, -1, -1):
        acc += x[i]
        out[i] = acc


def running_max(x: Int16[:], out: Out[Int16[:]]) -> None:
    """out[i] = max(x[0..i])."""
    m = x[0]
    for i in range(len(x)):
        if x[i] > m:
            m = x[i]
        out[i] = m


def every_other_sum(x: UInt16[:], start: Int64) -> Int64:
    """Sum of x[start], x[start+2], ... with range(start, stop, 2)."""
    s = 0
    for i in range(start, len(x), 2):
        s += Int64(x[i])
    return s


def backwards_stride_sum(x: Int64[:], step: Int64) -> Int64:
    """Sum of x[n-1], x[n-1-step], ... with a negative range step -step."""
    s = 0
    for i in range(len(x) - 1, -1, -step):
        s += x[i]
    return s


def difference(a: Out[Float64[:]]) -> None:
    """In-place first differences, from the end so inputs stay unread-over."""
    for i in range(len(a) - 1, 0, -1):
        a[i] -= a[i - 1]
