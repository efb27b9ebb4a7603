# error: calls whose result may be `None`, conditional expressions with an arm that may be `None` and `None` arms read as numbers (operands, arguments, augmented assignments, returns of a number), each reported once, after other errors and in refused blocks too; narrowed arms are not
from postyp import Bool, Float64, Int64


def halved(n: Int64) -> Int64 | None:
    if n % 2 == 0:
        return n // 2
    return None


def scaled(v: Float64, w: Float64 | None) -> Float64:
    return v


def values(x: Float64 | None, n: Int64, c: Bool) -> Float64:
    a = halved(n) + 1
    b = 2.0 * (x if c else 1.0)
    d = 2.0 * (1.0 if c else None)
    e = scaled(halved(n), None)
    f = scaled(1.0, halved(n))
    if x is not None:
        b = 2.0 * (x if c else 1.0)
    g = 1.0 if x is None else x + 1.0
    return None if c else b


def after_errors(x: Float64 | None, n: Int64, c: Bool) -> Float64:
    s = unknown + 1.0
    s += halved(n)
    with open("f") as f:
        t = -(None if c else x)
    return -halved(n)


def bool_values(p: Bool | None, c: Bool) -> Bool:
    a = p and c
    b = c or p
    d = p or c
    if p and c:
        a = c
    if p is not None:
        b = c and p
    return a and b and d
