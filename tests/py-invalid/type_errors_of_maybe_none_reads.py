# error: locals and parameters that may be `None` read as numbers where no test, binding or early return proves them present (narrowed by `is not None`, by `if x is None: return`, by assignment, in loops that bind them to `None`, in branches that join), after other errors and in refused blocks, each read reported once; the narrowed reads are not
from postyp import Bool, Float64, Int64


def halved(n: Int64) -> Int64 | None:
    if n % 2 == 0:
        return n // 2
    return None


def narrowed_by_tests(x: Float64 | None, y: Float64 | None, c: Bool) -> Float64:
    a = x + 1.0
    if x is not None:
        a = x * 2.0
    if y is None:
        return a
    b = y - 1.0
    if x is not None and x > 0.0:
        b = b + x
    d = -x
    if not (x is None or c):
        d = x / 2.0
    return b + a + d


def narrowed_by_assignment(x: Float64 | None, n: Int64) -> Float64:
    if x is None:
        x = 0.0
    s = x + 1.0
    k = halved(n)
    t = k * 2
    if k is None:
        k = 0
    t = k * 2
    return s + x + t


def loops(x: Float64 | None, n: Int64) -> Float64:
    total = 0.0
    if x is None:
        return total
    for i in range(n):
        total += x
        if i > 3:
            x = None
    y = x
    if y is None:
        y = 1.0
    while total < 10.0:
        total = total + y
    return total


def branches_join(x: Float64 | None, c: Bool) -> Float64:
    if c:
        x = 1.0
    else:
        pass
    u = x + 1.0
    if c:
        x = 2.0
    elif u > 3.0:
        x = 3.0
    else:
        return u
    return u + x


def after_errors(x: Float64 | None, c: Bool) -> Float64:
    a = missing_name + 1.0
    b = x < 1.0
    with open("f") as f:
        e = x * 2.0
    assert x is not None
    g = x * 3.0
    return g


def returned(x: Float64 | None, c: Bool) -> Float64:
    if c:
        raise ValueError("no")
    return x


def scaled(v: Float64, w: Float64 | None) -> Float64:
    return v


def arguments(x: Float64 | None, c: Bool) -> Float64:
    a = scaled(x, x)
    if x is None:
        x = 1.0
    b = scaled(x, None)
    return a + b
