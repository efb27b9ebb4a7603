"""Ufuncs whose bodies can panic (NumPy calls their loops from C)."""
from postyp import Float64, Int64, Out
from postc import ufunc, empty


@ufunc
def idiv(a: Int64, b: Int64) -> Int64:
    return a // b


@ufunc("(n),()->()")
def pick(x: Float64[:], i: Int64) -> Float64:
    return x[i]


@ufunc
def positive(x: Int64) -> Int64:
    assert x > 0, "x must be positive"
    return x


@ufunc
def square(a: Int64) -> Int64:
    return a * a


@ufunc
def count(n: Int64, step: Int64) -> Int64:
    c = 0
    for i in range(0, n, step):
        c += 1
    return c


@ufunc
def finite_inverse(x: Float64) -> Float64:
    y = 1.0 / x
    assert y < 1e300, "the inverse must be finite"
    return y


@ufunc("(n),()->(n)")
def scratch_then_pick(x: Float64[:], i: Int64, out: Out[Float64[:]]) -> None:
    """A scratch copy of x from the arena, then element i of it everywhere."""
    s = empty(len(x), Float64)
    for k in range(len(x)):
        s[k] = x[k]
    for k in range(len(x)):
        out[k] = s[i]
