# error: `min` and `max` of tuples compiled code refuses (a tuple among what is not one, tuples of different lengths) are the typecheck's: every call reported, with no echo in what reads the result
from postyp import Float64, Int64


def extremes(x: Float64, n: Int64) -> Float64:
    a = min((x, n), x)
    b = max((x, n), (x, n, n))
    c = min(((x, n), (x,)))
    d = max((1, 2), (3, 4))
    return a[0] + b[0] + c[0] + d[0]
