# error: a local that may be `None` where it is read as an index, an argument of `range`, of a cast or of a builtin, an element of a tuple, the base of an attribute or a value stored is the typecheck's error
from postyp import Float64, Int64, Out


def reads(a: Float64[:], i: Int64) -> Float64:
    y = None
    if i > 0:
        y = i
    s = a[y]
    for k in range(y):
        s += 1.0
    t = (y, 1.0)
    return s + float(y)


def builtins(a: Float64[:], i: Int64) -> Float64:
    y = None
    if i > 0:
        y = 1.0
    p = abs(y)
    q = min(y, 2.0)
    r = divmod(y, 2.0)
    return p + q + y.real


def stores(a: Out[Float64[:]], b: Float64[:], i: Int64) -> None:
    y = None
    if i > 0:
        y = 1.0
    a[0] = y
    z = None
    if i > 1:
        z = b
    a[1] = z[0]
