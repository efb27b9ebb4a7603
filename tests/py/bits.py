"""Bit manipulation over unsigned and signed integers of several widths."""
from postyp import Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64


def popcount32(x: UInt32) -> UInt32:
    """Set bits, one shift at a time."""
    c = UInt32(0)
    while x:
        c += x & 1
        x >>= 1
    return c


def popcount64(x: UInt64) -> UInt64:
    """SWAR popcount with masks that keep every product in range."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    s = UInt64(0)
    for i in range(8):
        s += x & 0xFF
        x >>= 8
    return s


def rev8(x: UInt8) -> UInt8:
    """Reverse the 8 bits of x."""
    r = UInt8(0)
    for i in range(8):
        r = (r << 1) | (x & 1)
        x >>= 1
    return r


def clz32(x: UInt32) -> Int64:
    """Leading zero bits of a 32-bit value."""
    if x == 0:
        return 32
    n = 0
    while (x & 0x80000000) == 0:
        x <<= 1
        n += 1
    return n


def sar16(x: Int16, k: Int16) -> Int16:
    """Arithmetic shift right: rounds toward minus infinity."""
    return x >> k


def shl32(x: Int32, k: Int32) -> Int32:
    """Shift left (arguments keep the result in range)."""
    return x << k


def inv32(x: Int32) -> Int32:
    """Bitwise not of a signed value: -x - 1."""
    return ~x


def inv8(x: UInt8) -> UInt8:
    """Bitwise not of an unsigned byte: 255 - x."""
    return ~x


def inv16(x: Int16) -> Int16:
    """Bitwise not of an Int16."""
    return ~x


def is_pow2(x: UInt32) -> Bool:
    """Exactly one bit set; `and` short-circuits before x - 1 at zero."""
    return x != 0 and (x & (x - 1)) == 0


def bit_field(x: UInt32, lo: UInt32, width: UInt32) -> UInt32:
    """Bits lo .. lo+width-1 of x (width below 32)."""
    return (x >> lo) & ((1 << width) - 1)


def swap_nibbles(x: UInt8) -> UInt8:
    """Swap the high and low halves of a byte."""
    return ((x & 0x0F) << 4) | (x >> 4)


def gray(n: UInt64) -> UInt64:
    """Binary-reflected Gray code."""
    return n ^ (n >> 1)


def gray_inverse(g: UInt64) -> UInt64:
    """Inverse of the Gray code by a shifting xor prefix."""
    n = g
    shift = g >> 1
    while shift:
        n ^= shift
        shift >>= 1
    return n


def xor_fold16(a: UInt16[:]) -> UInt16:
    """Xor of every element."""
    h = UInt16(0)
    for i in range(len(a)):
        h ^= a[i]
    return h


def or_all8(a: Int8[:]) -> Int8:
    """Bitwise or of signed bytes (negative values have the top bit)."""
    r = Int8(0)
    for i in range(len(a)):
        r = r | a[i]
    return r


def mask_low(x: Int64, k: Int64) -> Int64:
    """x & (2**k - 1) for k below 63."""
    return x & ((1 << k) - 1)
