"""Functions that return an argument, or a fresh array, for the lifetime
tests."""
from postyp import Float64, Int64, Out
from postc import empty


def same(x: Float64[:]) -> Float64[:]:
    return x


def bump(x: Out[Float64[:]]) -> Float64[:]:
    for i in range(len(x)):
        x[i] = x[i] + 1.0
    return x


def same2(a: Float64[:, :]) -> Float64[:, :]:
    return a


def second(a: Float64[:], b: Float64[:]) -> Float64[:]:
    return b


def ramp(n: Int64) -> Float64[:]:
    out = empty(n, Float64)
    for i in range(n):
        out[i] = Float64(i)
    return out
