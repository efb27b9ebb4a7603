# error: arms beside a `None` arm that are not numbers (a tuple, an array, a complex number, text), a parameter bound to `None` or to what may be `None`, locals only ever `None`; after other errors and in refused blocks, each reported once
from postyp import Bool, Float64, Int64


def maybe(x: Float64) -> Float64 | None:
    if x > 0.0:
        return x
    return None


def arms(c: Bool, a: Float64[:], y: Float64) -> Float64:
    r = y + undefined_name
    t = (1, 2) if c else None
    b = None if c else a
    q = 1j if c else None
    s = None if c else "text"
    print(None if c else (y, y))
    return y if c else None


def parameters(x: Float64, n: Int64, c: Bool) -> Float64:
    z = x + missing
    if c:
        x = None
    while c:
        n = maybe(x)
        with open("f") as f:
            x = None if c else 1.0
    return x


def locals_only_none(c: Bool) -> Float64:
    u = None
    u = None
    with open("f") as f:
        w = None
    if c:
        v: Float64 | None = None
    return 0.0
