# error: the targets and elements of `for` loops over tuples and list displays are the typecheck's errors, each once, with the errors in the bodies of refused loops and after them still reported
from postyp import Float64, Int64


def pair(x: Float64) -> tuple[Float64, Int64]:
    return x, 1


def over_tuples(x: Float64, n: Int64) -> Float64:
    s = 0.0
    t = (x, n)
    for a[0] in t:
        s += undefined_one
    for v in (1, 2.5):
        s += v
    for v in [n, x, 3]:
        s += v
    for a, b in ((1, 2), (3, 4, 5)):
        s += a
    for a, b in (x, x):
        s += a + "text"
    for a, b in ((1, 2.0), (3, 4)):
        s += b
    for v in pair(x):
        s += v
    for v in t[1:]:
        s += v
    for v in t:
        s += undefined_two
    return s
