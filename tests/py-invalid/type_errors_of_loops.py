# error: the targets and iterables of `for` loops are the typecheck's errors, each once, with the errors in the bodies of refused loops and after them still reported
from postyp import Float64, Int64


def targets(a: Float64[:], b: Float64[:], n: Int64) -> Float64:
    s = 0.0
    for i, j in range(n):
        s += undefined_one
    for x, y in a:
        s += 1
    for p in enumerate(a):
        s += 1.0
    for i, x, y in enumerate(a):
        s += x
    for (i, j), x in enumerate(a):
        s += x
    for u in zip(a, b):
        s += 1.0
    for v, w in zip(a, b):
        s += v * w + "text"
    return s


def iterables(a: Float64[:], x: Float64, n: Int64) -> Float64:
    s = 0.0
    for v in x:
        s += v
    for v in 3:
        s = s + undefined_two
    for i, v in enumerate(a, start=1):
        s += v
    for i, v in enumerate(a, a):
        s += v
    for v in zip():
        s += v
    for i, v in enumerate(x):
        s += v
    for v, w in zip(a, n):
        s += v
    for i, v in zip(range(1.5), a):
        s += v
    for i in range(n):
        s += a[i] + "more"
    return s
