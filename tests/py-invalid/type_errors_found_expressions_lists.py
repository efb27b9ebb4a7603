# error: the elements of a list local that are no numbers (an array, a tuple) or that its dtype cannot hold (a string), in its display or appended, are the typecheck's errors
from postyp import Float64, Int64


def displays(a: Float64[:], i: Int64) -> Float64:
    xs = [1.0, a]
    ys = [1.0, (1.0, 2.0)]
    zs = [1.0, "s"]
    return xs[i] + ys[i] + zs[i]


def appends(a: Float64[:], i: Int64) -> Float64:
    xs = [1.0, 2.0]
    xs.append("s")
    return xs[i]
