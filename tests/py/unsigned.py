"""Unsigned integers of every width: comparisons above the signed range,
UInt64 gcd and lcm, UInt16 sums kept in range, UInt8 saturating add."""
from postyp import Bool, UInt8, UInt16, UInt32, UInt64, Int64

BIG: UInt64 = 18446744073709551615


def u64_less(a: UInt64, b: UInt64) -> Bool:
    """Unsigned order, including values above 2**63."""
    return a < b


def u64_max(a: UInt64, b: UInt64) -> UInt64:
    """max of two UInt64."""
    return max(a, b)


def u64_gcd(a: UInt64, b: UInt64) -> UInt64:
    """Iterative Euclid."""
    while b != 0:
        t = a % b
        a = b
        b = t
    return a


def u64_lcm(a: UInt64, b: UInt64) -> UInt64:
    """a / gcd(a, b) * b (inputs keep the result in range)."""
    if a == 0 or b == 0:
        return UInt64(0)
    return a // u64_gcd(a, b) * b


def u64_complement(a: UInt64) -> UInt64:
    """BIG - a, never wrapping."""
    return UInt64(BIG) - a


def sat_add8(a: UInt8, b: UInt8) -> UInt8:
    """Saturating byte addition without overflow: compare first."""
    if a > 255 - b:
        return UInt8(255)
    return a + b


def u16_sum(a: UInt16[:]) -> UInt32:
    """Sum of UInt16 values into a UInt32 accumulator."""
    s = UInt32(0)
    for i in range(len(a)):
        s += UInt32(a[i])
    return s


def u16_absdiff(a: UInt16, b: UInt16) -> UInt16:
    """|a - b| without an unsigned wrap."""
    return a - b if a >= b else b - a


def u32_floor_avg(a: UInt32, b: UInt32) -> UInt32:
    """(a & b) + ((a ^ b) >> 1): the average without overflow."""
    return (a & b) + ((a ^ b) >> 1)


def u32_divmod(a: UInt32, b: UInt32) -> UInt32:
    """a // b * 1000 + a % b (inputs keep it in range)."""
    return a // b * 1000 + a % b


def u8_histogram_max(a: UInt8[:]) -> Int64:
    """Most frequent byte value (smallest on ties), through 256 counters."""
    best = 0
    best_count = 0
    for v in range(256):
        c = 0
        for i in range(len(a)):
            if a[i] == v:
                c += 1
        if c > best_count:
            best_count = c
            best = v
    return best
