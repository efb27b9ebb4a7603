# error: a conditional expression bound to a name, with an arm that may be `None` where it is read (a local not narrowed there): its other arm must be a Bool, an integer or a float, and the name one that may be `None`
from postyp import Float64, Int64


def arms(x: Float64, i: Int64) -> Float64:
    y = None
    if i > 0:
        y = x
    z = y if i > 1 else 1j
    w = y if i > 2 else (1.0, 2.0)
    return 1.0


def targets(x: Float64, i: Int64) -> Float64:
    y = None
    if i > 0:
        y = x
    w = y if i > 1 else 2.0
    if w is None:
        return 0.0
    return w


def narrowed(x: Float64, i: Int64) -> Float64:
    y = None
    if i > 0:
        y = x
    w = y if y is not None else 2.0
    v = None
    v = y if i > 1 else 2.0
    if v is None:
        return w
    return w + v
