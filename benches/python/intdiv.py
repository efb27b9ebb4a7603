"""Integer floor division, modulo and power in hot loops: variable signed
divisors (the floor adjustment matters), a Collatz walk (`// 2`, `% 2`) and
small integer powers. `main` returns a checksum. scripts/bench-intdiv runs it."""
from postyp import Int64, Int32, UInt32


def collatz_steps(n: Int64) -> Int64:
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def main() -> Int64:
    total = 0
    # Variable divisors: the floor adjustment matters.
    for i in range(1, 12000000):
        d = (i % 13) - 6
        if d == 0:
            d = 7
        total += (i * 7919) // d + (i * 104729) % d
    for i in range(1, 1000000):
        total += collatz_steps(i)
    for i in range(1, 8000000):
        total += (i % 7) ** (i % 5) + (i % 3) ** 13
    return total % 1000000007
