# error: line 4: an output array that may be `None`, an array of fixed extents that may be `None`, and a default other than `None`; line 9: an optional array used where it may be `None`; line 14: an array result that may be `None`; line 25: a compiled caller of a tuple result with an element that may be `None`
from postyp import Float64, Int64, Out

def total(x: Float64, out: Out[Float64[:]] | None, fixed: Float64[3] | None, w: Float64[:] | None = 0.0) -> Float64:
    return x


def unguarded(x: Float64, weights: Float64[:] | None = None) -> Float64:
    return x * weights[0]


def found(n: Int64, a: Float64[:]) -> Float64[:] | None:
    if n < 0:
        return None
    return a


def pair(n: Int64, a: Float64[:]):
    if n < 0:
        return None, n
    return a, n


def caller(a: Float64[:]) -> Int64:
    x, n = pair(1, a)
    return n
