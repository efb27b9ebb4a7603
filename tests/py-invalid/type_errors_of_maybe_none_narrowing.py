# error: the narrowings the lowering follows are accepted (elif chains, early returns and raises, `assert`, `while True` that only returns, `not`, `or` of tests, conditional expressions, loops that bind numbers only, a block of a refused `with`, reported, that binds a number); one read after a join that loses the narrowing, and one in a loop that binds `None`, are reported
from postyp import Bool, Float64, Int64


def chains(x: Float64 | None, y: Float64 | None, n: Int64) -> Float64:
    if x is None:
        raise ValueError("no x")
    a = x + 1.0
    if y is None or n > 3:
        return a
    elif y > 2.0:
        a = a + y
    else:
        a = a - y
    b = x * y if y is not None else 0.0
    if not (y is not None):
        return b
    while n > 0:
        a = a + y
        x = 2.0 * a
        n -= 1
    assert y is not None
    return a + b + x + y


def forever(x: Float64 | None, c: Bool) -> Float64:
    if x is None:
        while True:
            if c:
                return 0.0
    z = x + 1.0
    with open("f") as f:
        x = 3.0
    return z + x


def lost(x: Float64 | None, c: Bool, n: Int64) -> Float64:
    if x is not None:
        y = x + 1.0
    else:
        y = 0.0
    if c:
        x = 1.0
    t = x + y
    if x is None:
        return 0.0
    for i in range(n):
        t = t + x
        x = None if c else 2.0
    return t
