# error: line 15: a keyword-only parameter passed by position; line 16: one that has no default left out; line 19: one without a default after defaulted ones; line 24: one of a ufunc
from postc import ufunc
from postyp import Float64, Int64


def scale(x: Float64, *, k: Float64) -> Float64:
    return x * k


def offset(x: Float64, *, by: Float64 = 1.0) -> Float64:
    return x + by


def calls(x: Float64) -> Float64:
    return offset(x, 2.0) + scale(x, k=2.0) + offset(x, by=0.5)
    return scale(x)


def late(x: Float64, n: Int64 = 2, *, m: Int64) -> Float64:
    return x * n * m


@ufunc
def scaled(x: Float64, *, k: Float64 = 1.0) -> Float64:
    return x * k
