# error: the type errors of unpackings are the typecheck's: counts against a shape or a tuple, values that do not unpack, targets bound to values their types do not hold, after other errors too
from postyp import Float64, Int64


def pair(x: Float64) -> tuple[Float64, Int64]:
    return x, 1


def unpacking(n: Int64, a: Float64[:, :], t: tuple[Float64, Int64]) -> Float64:
    y = 1.0 + "s"
    y = 2.0
    y = "again"
    u, v = a.shape
    p, q, r = a.shape
    e, g = n
    w, z = a
    h, i, j = t
    c, d = pair(1.0)
    c = "x"
    b = a
    b = (1, 2)
    k = (1.0, 2.0)
    k = a
    l, m = 1.0, a
    l = "s"
    return y
