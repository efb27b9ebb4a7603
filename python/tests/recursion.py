"""Recursion without arena allocations (its library has no arena)."""
from postyp import Int64


def down(n: Int64, d: Int64) -> Int64:
    if n == 0:
        return 1 // d
    return down(n - 1, d) + 1
