"""Signed integers of every width: sums and dot products widened into
larger accumulators, Int8 clamping, Int16 midpoint, Int32 absolute values."""
from postyp import Int8, Int16, Int32, Int64, Float32

I16_MAX: Int64 = 32767


def sum8(a: Int8[:]) -> Int64:
    """Sum of Int8 values, each widened to Int64."""
    s = Int64(0)
    for i in range(len(a)):
        s += Int64(a[i])
    return s


def dot16(a: Int16[:], b: Int16[:]) -> Int32:
    """Int16 dot product accumulated in Int32."""
    s = Int32(0)
    for i in range(len(a)):
        s += Int32(a[i]) * Int32(b[i])
    return s


def clamp8(x: Int32) -> Int8:
    """Clamp into [-128, 127], then narrow (no wrap)."""
    if x < -128:
        return Int8(-128)
    elif x > 127:
        return Int8(127)
    return Int8(x)


def mid16(a: Int16, b: Int16) -> Int16:
    """Floor midpoint of two Int16 computed in Int32."""
    return Int16((Int32(a) + Int32(b)) // 2)


def abs32(x: Int32) -> Int32:
    """abs of an Int32 (never MIN here)."""
    return abs(x)


def neg8(x: Int8) -> Int8:
    """-x of an Int8 (never MIN here)."""
    return -x


def scale16(x: Int16, k: Int16) -> Int16:
    """x * k in Int16 (in range)."""
    return x * k


def saturate16(x: Int64) -> Int16:
    """min(x, I16_MAX) clipped below at -32768, as Int16."""
    y = min(x, I16_MAX)
    y = max(y, -32768)
    return Int16(y)


def int8_mean(a: Int8[:]) -> Float32:
    """Mean of an Int8 array in Float32."""
    s = Int32(0)
    for i in range(len(a)):
        s += a[i]
    return Float32(s) / Float32(len(a))


def sign_counts(a: Int32[:]) -> Int64:
    """100 * negatives + 10 * zeros + positives (if/elif/else)."""
    neg = 0
    zero = 0
    pos = 0
    for i in range(len(a)):
        if a[i] < 0:
            neg += 1
        elif a[i] == 0:
            zero += 1
        else:
            pos += 1
    return 100 * neg + 10 * zero + pos
