"""Non-cryptographic hashes over byte arrays, computed with explicit masks
so that no intermediate value leaves its dtype's range."""
from postyp import UInt8, UInt32, UInt64, Int64, Out

FNV_OFFSET32: UInt64 = 2166136261
FNV_PRIME32: UInt64 = 16777619
MASK32: UInt64 = 0xFFFFFFFF
MOD_ADLER = 65521


def fnv1a32(data: UInt8[:]) -> UInt32:
    """FNV-1a, 32 bits: (h ^ byte) * prime mod 2**32, kept in UInt64."""
    h = UInt64(FNV_OFFSET32)
    for i in range(len(data)):
        h = h ^ UInt64(data[i])
        h = (h * UInt64(FNV_PRIME32)) & UInt64(MASK32)
    return UInt32(h)


def adler32(data: UInt8[:]) -> UInt32:
    """Adler-32 checksum (both sums stay below 65521)."""
    a = UInt32(1)
    b = UInt32(0)
    for i in range(len(data)):
        a = (a + data[i]) % UInt32(MOD_ADLER)
        b = (b + a) % UInt32(MOD_ADLER)
    return (b << 16) | a


def xorshift32(x: UInt64) -> UInt64:
    """One step of Marsaglia's xorshift32, on 32-bit values held in UInt64."""
    x = x ^ ((x << 13) & UInt64(MASK32))
    x = x ^ (x >> 17)
    x = x ^ ((x << 5) & UInt64(MASK32))
    return x


def xorshift_stream(seed: UInt64, out: Out[UInt64[:]]) -> None:
    """out[i] = the (i+1)-th xorshift32 output from seed."""
    x = seed
    for i in range(len(out)):
        x = xorshift32(x)
        out[i] = x


def djb2(data: UInt8[:]) -> UInt64:
    """Bernstein's hash h*33 + c, reduced mod 2**32 each step."""
    h = UInt64(5381)
    for i in range(len(data)):
        h = (h * UInt64(33) + UInt64(data[i])) & UInt64(MASK32)
    return h


def bucket(data: UInt8[:], nbuckets: Int64) -> Int64:
    """Hash-table bucket of a key: fnv1a32 mod nbuckets, as Int64."""
    return Int64(fnv1a32(data)) % nbuckets
