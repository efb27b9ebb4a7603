"""Scalars that may be `None`: parameters annotated `T | None` or
`Optional[T]` (with a default of `None`, a number, or none), `is None`
and `is not None` tests that narrow them (`if`, `elif`, `and`, `or`,
`not`, a conditional expression, `assert`, rebinding), locals bound to
`None`, and results that may be `None` (`return None`, a bare `return`,
falling off the end), called from Python and from POST callers that pass
`None`, a number or nothing, by position or keyword."""
from typing import Optional

from postyp import Bool, Float32, Float64, Int32, Int64


def scaled(x: Float64, factor: Float64 | None = None) -> Float64:
    """x * factor, the factor 0.5 when it is None: rebinding narrows."""
    if factor is None:
        factor = 0.5
    return x * factor


def clipped(x: Int64, lo: Optional[Int64], hi: Int64 | None = None) -> Int64:
    """x clipped to the bounds that are given."""
    if lo is not None and x < lo:
        return lo
    if hi is None or x <= hi:
        return x
    return hi


def describe(flag: Bool | None = None) -> Int64:
    """0 for None, 1 for False, 2 for True: `elif` and `not` narrow."""
    if flag is None:
        return 0
    elif not flag:
        return 1
    return 2


def nearest(a: Float64[:], target: Float64) -> Int64 | None:
    """The index of the element nearest target; None for an empty array."""
    best = None
    gap = 0.0
    for i in range(len(a)):
        d = abs(a[i] - target)
        if best is None or d < gap:
            best = i
            gap = d
    return best


def first_negative(a: Int32[:]) -> Optional[Int32]:
    """The first negative element; a bare `return` when there is none."""
    for i in range(len(a)):
        if a[i] < 0:
            return a[i]
    return


def halved(n: Int64) -> Int64 | None:
    """n // 2 for an even n; an odd one falls off the end."""
    if n % 2 == 0:
        return n // 2


def or_default(x: Float32 | None, default: Float32) -> Float32:
    """x, or default when x is None: a conditional expression narrows."""
    return x if x is not None else default


def checked(x: Float64 | None) -> Float64:
    """x + 1 after `assert x is not None`, which panics for None."""
    assert x is not None, "x is required"
    return x + 1.0


def is_missing(x: Int64 | None = None) -> Bool:
    """Whether x is None, as a value."""
    return x is None


def chain(x: Int64 | None) -> Int64 | None:
    """A result that may be None passed on: halved's, of x when given."""
    if x is None:
        return None
    return halved(x)


def counted(n: Int64) -> Int64:
    """POST calls: None by position, by keyword, left out, and numbers;
    results tested with `is None` in a loop."""
    total = 0
    for k in range(n):
        h = halved(k)
        if h is not None:
            total += h
        r = chain(k + 1)
        if r is None:
            total += 100
        total += clipped(k, None) + clipped(k, 2, hi=None) + clipped(k, lo=1, hi=3)
    m = nearest_of_three(1.5)
    if m is not None:
        total += m * 1000
    return total + Int64(scaled(4.0)) + Int64(scaled(4.0, None)) + Int64(scaled(4.0, factor=2.0))


def nearest_of_three(t: Float64) -> Int64 | None:
    """A call's result that may be None, returned as it is."""
    return nearest_list(0.0, 1.0, 2.0, t)


def nearest_list(p: Float64, q: Float64, r: Float64, t: Float64) -> Int64 | None:
    """Which of p, q, r is nearest t (the first of equals); None when t is
    NaN."""
    if t != t:
        return None
    best: Int64 = 0
    if abs(q - t) < abs(p - t):
        best = 1
    if abs(r - t) < abs(q - t) and abs(r - t) < abs(p - t):
        best = 2
    return best


def last_index(a: Int32[:], v: Int32) -> Int64 | None:
    """The last index of v in a: an annotated local that may be None."""
    found: Int64 | None = None
    for i in range(len(a)):
        if a[i] == v:
            found = i
    return found
