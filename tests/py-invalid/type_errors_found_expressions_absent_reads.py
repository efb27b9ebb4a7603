# error: a local that may be `None` where it is read as an index, an argument of `range` or of a cast, or an element of a tuple is the typecheck's error
from postyp import Float64, Int64


def reads(a: Float64[:], i: Int64) -> Float64:
    y = None
    if i > 0:
        y = i
    s = a[y]
    for k in range(y):
        s += 1.0
    t = (y, 1.0)
    return s + float(y)
