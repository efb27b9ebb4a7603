"""Recursive integer functions."""
from postyp import Int64, UInt64, Int32

__all__ = ["fib", "gcd", "ackermann", "binom", "hanoi_moves", "ugcd", "digit_sum", "is_even"]


def fib(n: Int64) -> Int64:
    """Fibonacci by naive double recursion."""
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def gcd(a: Int64, b: Int64) -> Int64:
    """Euclid's algorithm, recursive; gcd(0, 0) = 0."""
    if b == 0:
        return abs(a)
    return gcd(b, a % b)


def ugcd(a: UInt64, b: UInt64) -> UInt64:
    """Euclid on UInt64, including values above 2**63."""
    if b == 0:
        return a
    return ugcd(b, a % b)


def ackermann(m: Int64, n: Int64) -> Int64:
    """The Ackermann function (small arguments only)."""
    if m == 0:
        return n + 1
    elif n == 0:
        return ackermann(m - 1, 1)
    else:
        return ackermann(m - 1, ackermann(m, n - 1))


def binom(n: Int64, k: Int64) -> Int64:
    """Binomial coefficient by Pascal's rule."""
    if k == 0 or k == n:
        return 1
    return binom(n - 1, k - 1) + binom(n - 1, k)


def hanoi_moves(n: Int32) -> Int64:
    """Moves to solve Towers of Hanoi with n discs: 2 * h(n-1) + 1."""
    if n == 0:
        return 0
    return 2 * hanoi_moves(n - 1) + 1


def digit_sum(n: Int64) -> Int64:
    """Sum of decimal digits, recursively, of |n|."""
    if n < 0:
        return digit_sum(-n)
    if n < 10:
        return n
    return n % 10 + digit_sum(n // 10)


def is_even(n: Int64) -> bool:
    """Mutual recursion with is_odd."""
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n: Int64) -> bool:
    """Mutual recursion with is_even."""
    if n == 0:
        return False
    return is_even(n - 1)
