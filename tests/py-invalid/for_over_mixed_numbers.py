from postyp import Float64, Int64


def signs(n: Int64) -> Float64:
    s = 0.0
    for x in (0, -1.5):
        s += x * n
    return s


def pairs(n: Int64) -> Int64:
    s = 0
    for a, b in ((1, 2), (3, 4.5)):
        s += a * n
    return s


def flags(n: Int64) -> Int64:
    s = 0
    for x in [True, 2, n]:
        s += x
    return s
