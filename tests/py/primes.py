"""Primes: a sieve of Eratosthenes into a Bool output and a Bool scratch
array, trial division with break and continue, the n-th prime."""
from postyp import Bool, Int64, Out
from postc import empty


def sieve(flags: Out[Bool[:]]) -> Int64:
    """flags[k] = k is prime, for k < len(flags); returns the count."""
    n = len(flags)
    for k in range(n):
        flags[k] = k >= 2
    p = 2
    while p * p < n:
        if flags[p]:
            for m in range(p * p, n, p):
                flags[m] = False
        p += 1
    c = 0
    for k in range(n):
        if flags[k]:
            c += 1
    return c


def is_prime(n: Int64) -> Bool:
    """Trial division by odd numbers up to sqrt(n)."""
    if n < 2:
        return False
    if n % 2 == 0:
        return n == 2
    d = 3
    while d * d <= n:
        if n % d == 0:
            return False
        d += 2
    return True


def nth_prime(k: Int64) -> Int64:
    """The k-th prime (k >= 1), skipping even candidates with continue."""
    count = 0
    cand = 1
    while True:
        cand += 1
        if cand > 2 and cand % 2 == 0:
            continue
        if is_prime(cand):
            count += 1
            if count == k:
                break
    return cand


def prime_count(limit: Int64) -> Int64:
    """pi(limit - 1) through a scratch sieve made with empty()."""
    if limit < 3:
        return 0
    f = empty(limit, Bool)
    return sieve(f)


def largest_prime_factor(n: Int64) -> Int64:
    """Largest prime factor of n >= 2 by repeated division."""
    f = 2
    last = 1
    while n > 1:
        if n % f == 0:
            n //= f
            last = f
        else:
            f += 1
    return last
