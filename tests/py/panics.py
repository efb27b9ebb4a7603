"""Runtime panics and where they are reported: bounds on loads and stores
(positive and too-negative indices, both axes), integer division and
modulo by zero, failed asserts with and without a message, a zero range
step, and a panic inside a called function."""
from postyp import Float64, Int32, Int64, UInt8, Out


def get(a: Float64[:], i: Int64) -> Float64:
    """a[i]; negative i counts from the end."""
    return a[i]


def get2(a: Int32[:, :], i: Int64, j: Int64) -> Int32:
    """a[i, j]."""
    return a[i, j]


def put(a: Out[UInt8[:]], i: Int64, v: UInt8) -> None:
    """a[i] = v."""
    a[i] = v


def add_at(a: Out[Float64[:]], i: Int64, v: Float64) -> None:
    """a[i] += v."""
    a[i] += v


def put2(a: Out[Int32[:, :]], i: Int64, j: Int64, v: Int32) -> None:
    """a[i, j] = v."""
    a[i, j] = v


def idiv(a: Int64, b: Int64) -> Int64:
    """a // b."""
    return a // b


def imod(a: Int32, b: Int32) -> Int32:
    """a % b."""
    return a % b


def must_be_positive(n: Int64) -> Int64:
    """assert with a message."""
    assert n > 0, "n must be positive"
    return n


def must_be_even(n: Int64) -> Int64:
    """assert without a message, on a Bool local."""
    even = n % 2 == 0
    assert even
    return n // 2


def checked_sum(a: Float64[:], n: Int64) -> Float64:
    """Sum of the first n elements; fails past the end."""
    s = 0.0
    for i in range(n):
        s += a[i]
    return s


def stepped(n: Int64, step: Int64) -> Int64:
    """Number of iterations of range(0, n, step)."""
    c = 0
    for i in range(0, n, step):
        c += 1
    return c


def last_of(a: Float64[:], k: Int64) -> Float64:
    """Calls get with index -k: a bounds panic points into get."""
    return get(a, -k)


def average_bucket(total: Int64, count: Int64) -> Int64:
    """total // count, then % 10 of that: two places to fail."""
    q = total // count
    return q % (count - 1)


def dims_check(n: Int64) -> Int64:
    """A raise of built-in exceptions, as UMAP's haversine checks its input."""
    if n == 0:
        raise NotImplementedError
    if n < 0:
        raise IndexError()
    if n != 2:
        raise ValueError("haversine is only defined for 2 dimensional data")
    return n
