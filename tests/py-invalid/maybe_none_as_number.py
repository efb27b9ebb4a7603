# error: 5 errors, all reported at once: line 11: a parameter that may be None used as a number; line 12: a call that may return None used as a number; line 13: `None` used as a number; line 17: narrowed before a loop that binds it to None; line 21: narrowed in one arm of an `if` only
from postyp import Float64, Int64


def halved(n: Int64) -> Int64 | None:
    if n % 2 == 0:
        return n // 2


def uses(x: Float64 | None, n: Int64) -> Float64:
    y = x + 1.0
    m = halved(n) + 1
    z = 2.0 * None
    if x is None:
        x = 0.0
    for i in range(n):
        y += x
        x = None
    if n > 0:
        x = 1.0
    return x + y + m + z
