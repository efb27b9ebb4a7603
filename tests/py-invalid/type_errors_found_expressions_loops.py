# error: a `for` loop over a tuple or a list display whose elements would bind one name to values of different kinds (a number, a tuple of some length, an array of some dtype and number of axes) is the typecheck's error
from postyp import Float64, Int64


def kinds(a: Float64[:], b: Int64[:, :], x: Float64) -> Float64:
    s = 0.0
    for t in ((1.0, 2.0), (3.0, 4.0, 5.0)):
        s += 1.0
    for u in (a, x):
        s += 1.0
    for v in (a, b):
        s += 1.0
    for w in [x, (x, x)]:
        s += 1.0
    for p, q in ((x, a), (x, x)):
        s += p
    return s
