"""Helpers whose parameters have no annotations, as real code leaves its
helpers: each is compiled for the argument types of each call (a Float64
and an Int64 array, a Python number and a NumPy one), as Numba compiles
a helper per signature; only the functions called from outside are
annotated."""
import numpy as np
from postyp import Float32, Float64, Int32, Int64, Out


def shift_and_insert(target, value, index):
    """Inserts `value` at `index`, shifting what follows one place along
    (the last element drops off); the index after the insertion."""
    n = len(target)
    for i in range(n - 1, index, -1):
        target[i] = target[i - 1]
    target[index] = value
    return index + 1


def insert_sorted(pixel, value):
    """`value` into the ascending `pixel`, through the helper above."""
    for i in range(len(pixel)):
        if value < pixel[i]:
            shift_and_insert(pixel, value, i)
            return


def max_n_both(floats: Out[Float64[:]], ints: Out[Int64[:]], xs: Float64[:], ks: Int64[:]) -> None:
    """Both arrays kept ascending with each new value inserted: one
    helper, an instance per dtype."""
    for x in xs:
        insert_sorted(floats, x)
    for k in ks:
        insert_sorted(ints, k)


def add(a, b):
    """a + b, of whatever the caller passes."""
    return a + b


def sums(x: Float32, i: Int32, f: Float64) -> Float64:
    """`add` of NumPy numbers and of Python numbers: a Python number
    stays one (`x + 1` is Float32, as in CPython), NumPy's do not."""
    r1 = add(x, 1)
    r2 = add(i, i)
    r3 = add(f, 2)
    r4 = add(3, 4)
    r5 = add(x, np.float64(0.5))
    return Float64(r1) + Float64(r2) + r3 + Float64(r4) + Float64(r5)


def add_float32_int(x: Float32) -> Float32:
    """A Python int added to a Float32 in the helper: Float32."""
    return add(x, 1)


def scaled(v, k):
    """A whole-array expression of an array parameter."""
    return v * k


def scaled_sum(v: Float32[:], w: Int64[:]) -> Float64:
    """`scaled` of a Float32 and an Int64 array, by Python numbers: the
    first stays Float32, the second becomes Float64."""
    a = scaled(v, 2)
    b = scaled(w, 0.5)
    return Float64(a.sum()) + b.sum()


def clamp(x, lo=0.0, hi=1.0):
    """x within [lo, hi]; defaults and keywords as for any function."""
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def clamped(xs: Float64[:], out: Out[Float64[:]]) -> None:
    """Each element clamped with the defaults, then to [-1, 2]."""
    for i in range(len(xs)):
        out[i] = clamp(xs[i]) + clamp(xs[i], hi=2.0, lo=-1.0)


def extremes(a):
    """The least and the greatest element: a tuple result."""
    lo = a[0]
    hi = a[0]
    for x in a:
        lo = min(lo, x)
        hi = max(hi, x)
    return lo, hi


def spread(a: Float64[:], b: Int64[:]) -> Float64:
    """`extremes` of two dtypes, unpacked."""
    lo, hi = extremes(a)
    ilo, ihi = extremes(b)
    return (hi - lo) + Float64(ihi - ilo)


def cells(shape):
    """The number of elements of an array of `shape` (a tuple)."""
    n = 1
    for s in shape:
        n *= s
    return n


def count_cells(a: Float64[:, :]) -> Int64:
    """`cells` of a shape tuple."""
    return cells(a.shape)


def total(a):
    """The sum of a read-only array's elements: no write, so an input
    array may be passed."""
    s = 0.0
    for x in a:
        s += x
    return s


def total_of_input(a: Float64[:]) -> Float64:
    """`total` of the caller's input array."""
    return total(a)


def scaled_by(a, *, k=2):
    """A keyword-only parameter without annotation, and its default."""
    return a * k


times = scaled_by


def keyword_only(x: Float64, n: Int64) -> Float64:
    """The helper through another name, by keyword, and with its default."""
    return times(x, k=3) + scaled_by(x) + Float64(scaled_by(n, k=n))


def fact(n):
    """Recursion: the result is what the `return` that does not recurse
    gives."""
    if n <= 1:
        return 1
    return n * fact(n - 1)


def factorials(n: Int64, m: Int32) -> Int64:
    """The recursive helper of an Int64 and of an Int32."""
    return fact(n) + Int64(fact(m))


def fact_bound(n):
    """Recursion through locals: the `return` of what the recursive call
    gave, through a chain of locals, is typed by the other, as the
    `return` of the call is."""
    if n <= 1:
        return 1
    r = n * fact_bound(n - 1)
    product = r
    return product


def factorials_bound(n: Int64) -> Int64:
    """The helper whose recursive result is bound to a local."""
    return fact_bound(n)
