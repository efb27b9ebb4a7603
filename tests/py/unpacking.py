"""Tuple unpacking: parallel assignment (`a, b = b, a`, `a[i], a[j] =
a[j], a[i]`), which evaluates every value before assigning any target,
left to right, as CPython does; and an array's shape unpacked into its
extents (`n, m = a.shape`)."""
import numpy as np
from postyp import Float64, Int32, Int64, Out


def swap(x: Int64, y: Int64) -> Int64:
    """`a, b = b, a` exchanges the two."""
    a = x
    b = y
    a, b = b, a
    return 10 * a + b


def fib(n: Int64) -> Int64:
    """The two values are read before either is assigned."""
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def mixed(x: Int64) -> Float64:
    """Each name takes the type of its own value."""
    i, f = x, 2.5
    return i * f


def rotate(x: Int64, y: Int64, z: Int64) -> Int64:
    """Three names at once."""
    x, y, z = y, z, x
    return 100 * x + 10 * y + z


def typed(x: Int32) -> Int32:
    """An annotated local keeps its type."""
    t: Int32 = Int32(0)
    t, u = x, 7
    return t + u


def reverse(a: Out[Int64[:]]) -> None:
    """A swap of array elements in place."""
    i, j = 0, len(a) - 1
    while i < j:
        a[i], a[j] = a[j], a[i]
        i, j = i + 1, j - 1


def bubblesort(a: Out[Float64[:]]) -> None:
    """numba-examples' bubble sort."""
    n = len(a)
    for i in range(n - 1):
        for j in range(n - 1 - i):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]


def exchange(a: Out[Int64[:]], x: Int64) -> Int64:
    """An element and a name exchange values; the index is read when
    its target is assigned."""
    i = 0
    a[i], x = x, a[i]
    i, a[i] = 1, x
    return x


def total(m: Float64[:, :]) -> Float64:
    """`n, k = m.shape`."""
    n, k = m.shape
    s = 0.0
    for i in range(n):
        for j in range(k):
            s += m[i, j] * (i + 1)
    return s


def volume(t: Float64[:, :, :]) -> Int64:
    """A 3-D shape and a 1-D one, `(n,) = a.shape`."""
    p, q, r = t.shape
    return p * 100 + q * 10 + r


def length(a: Float64[:]) -> Int64:
    """A 1-D shape unpacks into one name."""
    (n,) = a.shape
    [m] = a.shape
    return n + m


def swap_arrays(n: Int64) -> Float64:
    """Two array locals exchanged each step, as dynamic-programming
    kernels keep a previous and a current row: each name takes the
    array the other held before the statement."""
    prev = np.zeros(3)
    curr = np.ones(3)
    for i in range(n):
        curr[0] = prev[0] + 2.0
        prev, curr = curr, prev
    return prev[0] * 100.0 + curr[0]


def swap_params(x: Float64[:], y: Float64[:]) -> Float64:
    """Two array parameters exchanged (`x, y = y, x`, so that `x` is the
    longer)."""
    if len(x) < len(y):
        x, y = y, x
    return x[0] * 10.0 + y[0] + len(x)
