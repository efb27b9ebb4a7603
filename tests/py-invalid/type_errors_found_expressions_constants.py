# error: a constant that the dtype it meets cannot hold is the typecheck's error wherever the lowering converts it: stored in an element or a view, in an update of a number, an element or a whole array, in whole-array arithmetic, returned, and passed to a parameter (a number, one that may be `None`, an element of a tuple)
from postyp import Int8, Int64, Out, UInt8


def stores(a: Out[Int8[:, :]], b: Out[UInt8[:]], i: Int64) -> None:
    a[0, 1] = 300
    a[i] = 300
    a[1:2, 0] = -200
    b[:] = -1


def updates(a: Out[Int8[:]], i: Int64) -> Int8:
    x = a[0]
    x += 300
    a[i] -= 1000
    a[:] *= 300
    return x


def whole_arrays(a: Int8[:], b: UInt8[:]) -> Int8:
    c = a + 300
    d = b * -1
    return c[0] + d[0]


def returns(i: Int64) -> Int8:
    if i > 0:
        return -129
    return 300


def narrow(x: Int8) -> Int8:
    return x


def maybe(x: Int8 | None) -> Int8:
    if x is None:
        return 0
    return x


def pair(t: tuple[Int8, Int64]) -> Int8:
    return t[0]


def arguments(i: Int64) -> Int8:
    return narrow(300) + maybe(-200) + pair((1000, 1))
