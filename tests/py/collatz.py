"""Collatz step counts: while loops on numeric conditions, calls between
functions with a result and as statements, a static-shape output."""
from postyp import Int64, UInt32, Out


def steps(n0: Int64) -> Int64:
    """Number of 3n+1 steps from n0 down to 1."""
    n = n0
    s = 0
    while n != 1:
        if n % 2:
            n = 3 * n + 1
        else:
            n = n // 2
        s += 1
    return s


def record(out: Out[Int64[2]], best: Int64, arg: Int64) -> None:
    """out = [arg, best]."""
    out[0] = arg
    out[1] = best


def longest(limit: Int64, out: Out[Int64[2]]) -> None:
    """out = [start below limit with the most steps, its step count]."""
    best = 0
    arg = 1
    for i in range(1, limit):
        s = steps(i)
        if s > best:
            best = s
            arg = i
    record(out, best, arg)


def peak_u32(n0: UInt32) -> UInt32:
    """Largest value on the trajectory, in UInt32 (starts kept small)."""
    n = n0
    peak = n0
    while n > 1:
        if n % 2 == 1:
            n = n * 3 + 1
        else:
            n //= 2
        if n > peak:
            peak = n
    return peak


def countdown_sum(n: Int64) -> Int64:
    """Sum n + (n-1) + ... + 1 with `while n:` (a numeric condition)."""
    t = 0
    while n:
        t += n
        n -= 1
    return t
