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


def positive_or_none(x: Float64) -> Float64 | None:
    """`None` as an arm of a returned conditional expression."""
    return None if x <= 0.0 else x


def half_if_even(n: Int64) -> Int64 | None:
    """A local bound to a conditional expression with a `None` arm,
    returned as it is."""
    h = n // 2 if n % 2 == 0 else None
    return h


def tripled_above(n: Int64, limit: Int64) -> Int64:
    """`== None` and `!= None` test and narrow as `is None` does."""
    h = n * 3 if n > limit else None
    if h == None:
        return -1
    k = None if n < 0 else n
    if k != None and k > 1:
        return h + k
    return h


def equals_none(x: Float64 | None) -> Bool:
    """`x == None` as a value."""
    return x == None


def doubled_unless_none(x: Int32 | None) -> Int64:
    """`None != x`, `None` on the left."""
    if None != x:
        return Int64(x) * 2
    return -5


def truth_of(x: Float64 | None) -> Int64:
    """`if x:` of a value that may be None: None and 0.0 are false."""
    if x:
        return 1
    return 0


def not_of(x: Int64 | None) -> Bool:
    """`not x`: true for None and for 0."""
    return not x


def plus_ten_if_truthy(x: Int64 | None) -> Int64:
    """`if x:` narrows x to a number in its arm."""
    if x:
        return x + 10
    return 0


def both(x: Bool | None, y: Bool) -> Int64:
    """`and` and `or` in a condition take operands that may be None."""
    if x and y:
        return 1
    if not x or not y:
        return 2
    return 3


def either(x: Bool | None, y: Bool) -> Bool:
    """`x or y` of an x that may be None: True, or y."""
    return x or y


def or_zero(x: Float32 | None) -> Float32:
    """x, or 0 when x is None."""
    return x if x is not None else Float32(0.0)


def passed_on(x: Float32 | None) -> Float32:
    """Values that may be None passed to a parameter that may be None: a
    local, a parameter and a conditional expression with a `None` arm."""
    y = x if x is not None else None
    return or_zero(y) + or_zero(x) + or_zero(x * 2.0 if x is not None and x > 0 else None)


def countdown(n: Int64) -> Int64:
    """`while k:` of a local that may be None, rebound in the loop to a
    conditional expression with a `None` arm."""
    k = n if n > 0 else None
    count = 0
    while k:
        count += 1
        k = k - 1 if k > 1 else None
    return count


def doubled_nonzero(n: Int64, keep: Bool) -> Int64:
    """An annotated local bound to a conditional expression with a `None`
    arm; `if not found: return` leaves it known to be a number."""
    found: Int64 | None = n if keep else None
    if not found:
        return -1
    return found * 2


def capped(n: Int64) -> Int64 | None:
    """Nested conditional expressions, the inner one with a `None` arm."""
    return (None if n < 0 else n) if n < 10 else 10


def required_nonzero(x: Int64 | None) -> Int64:
    """`assert x` fails for None and for 0, and narrows x after it."""
    assert x, "x is required and nonzero"
    return x + 1


def first_truthy(x: Int64 | None, y: Int64 | None) -> Int64:
    """`if x:` then `elif y:`, each narrowing its own arm."""
    if x:
        return x
    elif y:
        return y * 10
    return 0


def same_or_both_none(x: Float64 | None, y: Int64 | None) -> Bool:
    """`==` of two values that may be None: None equals only None."""
    return x == y


def halves_differ(n: Int64, m: Int64) -> Bool:
    """`!=` of two calls whose results may be None."""
    return halved(n) != halved(m)


def never_none(x: Float64, k: Int64) -> Int64:
    """A value that is never `None` tested against it, as generic code
    does: CPython's constant answers."""
    n = 0
    if x is not None:
        n += 1
    if x is None:
        n += 10
    if x == None:  # noqa: E711
        n += 100
    if None != k * 2:  # noqa: E711
        n += 1000
    return n


def array_never_none(a: Float64[:], m: Float64[:, :], t: Float64 | None = None) -> Float64:
    """Arrays tested with `is None`, as generic code does: an array is never
    `None` (NumPy's `==` with `None` compares elements, so only `is`)."""
    s = 0.0
    if a is not None:
        s += a[0]
    if m is None:
        s += 100.0
    if a is not None and t is not None:
        s += t
    return s if m[0] is not None else -1.0


def first_below(a: Int64[:], t: Int64) -> Int64:
    """`found` holds a number after the loop: its `break` bound one and
    its `else` another."""
    found = None
    for i in range(len(a)):
        if a[i] < t:
            found = i
            break
    else:
        found = -1
    return found


def stopped_at(n: Int64, stop: Int64) -> Int64 | None:
    """None when the loop stopped at its `break`, before the `else`
    bound a number."""
    x = None
    k = 0
    while k < n:
        k += 1
        if k == stop:
            break
    else:
        x = 10 * k
    return x
