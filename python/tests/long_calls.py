"""Calls that run long enough to overlap, for the GIL tests."""
from postyp import Int64, UInt64


def churn(n: Int64, seed: UInt64) -> UInt64:
    """n steps of a 64-bit linear congruential generator with a xorshift."""
    x = seed
    for i in range(n):
        x = x * UInt64(6364136223846793005) + UInt64(1442695040888963407)
        x = x ^ (x >> UInt64(29))
    return x


def churn_then_check(n: Int64, seed: UInt64, bad: UInt64) -> UInt64:
    x = churn(n, seed)
    assert x != bad, "reached the bad value"
    return x
