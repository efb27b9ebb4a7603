"""Scalar integer loops for run-time comparisons against other compilers:
`//` and `%` by constants, as Python programs write them."""
from postyp import Int64

__all__ = ["collatz_total", "digit_sum_total"]


def collatz_steps(n0: Int64) -> Int64:
    n = n0
    s = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        s += 1
    return s


def collatz_total(limit: Int64) -> Int64:
    """Sum of the 3n+1 step counts of 1 .. limit-1 (`% 2`, `// 2`)."""
    t = 0
    for n in range(1, limit):
        t += collatz_steps(n)
    return t


def digit_sum_total(limit: Int64) -> Int64:
    """Sum of the decimal digits of 0 .. limit-1 (`% 10`, `// 10`)."""
    t = 0
    for n in range(limit):
        m = n
        while m > 0:
            t += m % 10
            m = m // 10
    return t
