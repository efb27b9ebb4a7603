"""Locals read where nothing may have bound them on the path taken: CPython
raises UnboundLocalError when the read finds them unbound, and so does the
compiled code (a check where the read may come first, none where every
path binds the local)."""
from postyp import Float64, Int64


def if_without_else(c: Int64) -> Int64:
    """Bound only when c > 0."""
    if c > 0:
        w = 10 * c
    return w


def loop_variable_after(n: Int64) -> Int64:
    """The loop's name after a loop that may not run."""
    for i in range(n):
        pass
    return i


def previous_value(a: Float64[:]) -> Float64:
    """`prev` is bound late in the body: read on the second run only."""
    total = 0.0
    for k in range(len(a)):
        if k > 0:
            total += a[k] - prev
        prev = a[k]
    return total


def read_too_early(a: Float64[:]) -> Float64:
    """The first run reads `prev` before the body binds it."""
    total = 0.0
    for k in range(len(a)):
        total += a[k] - prev
        prev = a[k]
    return total


def found_by_break(n: Int64) -> Int64:
    """`while True` ends only by its `break`, after `found` is bound."""
    k = 0
    while True:
        k += 1
        found = k * k
        if found > n:
            break
    return found


def last_match(a: Int64[:], t: Int64) -> Int64:
    """Bound in the loop when an element matches; `else` binds it too."""
    for x in a:
        if x == t:
            at = x
            break
    else:
        at = -1
    return at


def conditional_read(c: Int64) -> Int64:
    """A read in an arm that does not run raises nothing."""
    if c > 0:
        v = c
    return v if c > 0 else -c
