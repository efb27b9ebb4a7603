# error: programs a longer run of the misuse probe and the frontend fuzz target found the lowering alone refused, now the typecheck's: `None` as a bound or the number of samples of `np.linspace`, a local that may be `None` returned in a tuple where the result is annotated, a list display as an argument of a POST function, compared, added in place, tested or returned, an element of an inferred tuple result that is `None` wherever it is given, a complex number stored through the unpacking of a conditional expression, a loop over a tuple of arrays of two layouts, a local annotated with a type that does not allow `None` bound to `None`, `None` read where a binding of the local gives it, `sort` of a list local, bins of `np.histogram` of a range that may be `None`, `None` as `k` of `np.eye` or the offset of `np.trace`, a store through a tuple local of the wrong count of indices
import numpy as np
from postyp import Float64, Int32, Int64, Out


def samples(start: Float64, stop: Float64) -> Float64:
    a = np.linspace(start, stop, num=None, endpoint=False)
    b = np.linspace(None, stop, 4)
    return a[0] + b[0]


def span(n: Int64) -> tuple[Int64, Int64]:
    lo = 0
    hi = None
    if n > 0:
        hi = n
    return (lo, hi)


def g(a: Float64[:]) -> Float64:
    return a[0]


def displays(x: Float64) -> Float64:
    w = np.zeros(2)
    w += [x, x]
    if [x] == [x]:
        return g([x])
    while [x]:
        x += 1.0
    return [x]


def pair(a: Float64[:]):
    return ((a - 1.0) / 2.0, None)


def stores(arr: Out[Int64[:]], a: Int64, b: Int64) -> None:
    arr[0], arr[1] = (1j, b) if a <= b else (b, a)


def through(y: Out[Float64[:]]) -> None:
    t = (np.zeros(3), y)
    for v in t:
        v[0] = 7.0


def annotated(x: Int32) -> Int32:
    t: Int32 = None
    return x


def updated_from_none(x: Float64) -> Float64:
    s = None
    s = s * 0.5 + x
    return s


def sorted_list(a: Float64[:]) -> Float64:
    r = [1.0, 2.0]
    r.sort()
    return r[0]


def binned(a: Float64[:], rng: tuple[Float64, Float64] | None = None) -> Int64:
    return np.histogram(a, bins=2.5, range=rng)[0].sum()


def diagonals(n: Int64, a: Float64[:, :]) -> Float64:
    return np.eye(n, n, None)[0, 0] + np.eye(n, k=None)[0, 0] + np.trace(a, None)


def through_tuple(a: Out[Int64[:]]) -> None:
    idx = (1, 2)
    a[idx] = 3
