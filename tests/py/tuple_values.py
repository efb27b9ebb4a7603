"""Tuples as values inside a function: displays, `a.shape` and `divmod`
bound to locals and indexed (constant indices, negative ones, a run-time
index into a tuple of one dtype, which CPython checks), `len`, `min`,
`max`, `sum`, `==` and `!=`, `in`, unpacking of tuples and of 1-D arrays
(whose length is checked as CPython checks it), conditional expressions
choosing a tuple, tuples of arrays, and `for` loops over tuples."""
import numpy as np
from postyp import Bool, Float64, Int32, Int64, Out


def shape_value(a: Float64[:, :]) -> Int64:
    """`s = a.shape`: its extents by index, from the end, unpacked and
    counted."""
    s = a.shape
    n, m = s
    return 1000 * s[0] + 100 * s[-1] + 10 * len(s) + n * m


def extent(a: Float64[:, :], axis: Int64) -> Int64:
    """An extent picked by a run-time index (out of range panics)."""
    s = a.shape
    return s[axis]


def mixed_pair(x: Int64, y: Float64) -> Float64:
    """A tuple of an Int64 and a Float64: each element keeps its type."""
    t = (x, y)
    return t[0] // 2 + t[1]


def swap_tuple(x: Int64, y: Int64) -> Int64:
    """`t = (t[1], t[0])` builds the new tuple before rebinding `t`."""
    t = (x, y)
    t = (t[1], t[0])
    a, b = t
    return 10 * a + b


def pick(i: Int64) -> Int64:
    """A run-time index into a tuple of one dtype, negative from the end."""
    t = (10, 20, 30)
    return t[i]


def pick_joined(x: Int32, i: Int64) -> Float64:
    """Rebinding a tuple joins each element's type, as for a local."""
    t = (1.5, 2.5)
    if x > 0:
        t = (Float64(x), 0.5)
    return t[i] + t[-1]


def divmod_value(a: Int64, b: Int64) -> Int64:
    """`q = divmod(a, b)` with Python's floor semantics."""
    q = divmod(a, b)
    r = q[1]
    return 100 * q[0] + r


def reductions(x: Int64, y: Int64, z: Int64) -> Int64:
    """`min`, `max` and `sum` of a tuple."""
    t = (x, y, z)
    return 10000 * min(t) + 100 * max(t) + sum(t)


def float_sum(x: Float64, y: Float64) -> Float64:
    """`sum` of floats, and with a start value."""
    t = (x, y, 0.25)
    return sum(t) + sum((x, 1.0), 100.0)


def membership(x: Int64) -> Int64:
    """`in` and `not in` a tuple of constants."""
    small = x in (1, 2, 3)
    odd = x not in (0, 2, 4, 6)
    return 10 * Int64(small) + Int64(odd)


def same_shape(a: Float64[:, :], b: Float64[:, :]) -> Bool:
    """`a.shape == b.shape`."""
    return a.shape == b.shape


def tuple_equality(x: Int64, y: Int64) -> Int64:
    """`t == (1, 2)`, `!=`, and tuples of different lengths."""
    t = (x, y)
    eq = t == (1, 2)
    ne = t != (1, 2)
    longer = t == (x, y, 0)
    return 100 * Int64(eq) + 10 * Int64(ne) + Int64(longer)


def ordered(x: Int64, y: Int64) -> Int64:
    """`t = (x, y) if c else (y, x)`: a conditional expression of tuples."""
    t = (x, y) if x <= y else (y, x)
    lo, hi = t
    return 100 * lo + hi


def ordered_widened(x: Int64, y: Float64) -> Float64:
    """The arms' element types are joined as for scalars."""
    lo, hi = (x, y) if Float64(x) <= y else (y, x)
    return 10.0 * lo + hi


def sort_two(arr: Out[Int64[:]]) -> Int64:
    """numba-examples' two-element sort: `a, b = arr` and a conditional
    tuple stored into elements, every value read before any store."""
    a, b = arr
    arr[0], arr[1] = ((a, b) if a <= b else (b, a))
    return arr[0] - arr[1]


def unpack_three(arr: Float64[:]) -> Float64:
    """`a, b, c = arr`: a length other than 3 raises CPython's ValueError."""
    a, b, c = arr
    return a + 10.0 * b + 100.0 * c


def loop_constants(n: Int64) -> Int64:
    """`for x in (1, 2, 3)` with `continue`, `break` and `else`."""
    total = 0
    for x in (1, 2, 3, 4):
        if x == n:
            continue
        if x > 3 * n:
            break
        total += x
    else:
        total += 1000
    return total


def loop_mixed(x: Int64, y: Float64) -> Float64:
    """`for v in t` over a tuple of an Int64 and a Float64: `v` takes
    their join; the body's rebinding of `t` does not change the loop."""
    t = (x, y)
    acc = 0.0
    for v in t:
        acc = 10.0 * acc + v
        t = (y, y)
    return acc + t[0]


def arrays_tuple(a: Float64[:], b: Float64[:], out: Out[Float64[:]]) -> Int64:
    """A tuple of arrays holds the arrays, not copies."""
    t = (a, b)
    first, second = t
    for i in range(len(out)):
        out[i] = first[i] + 10.0 * t[1][i]
    return len(t[0]) + 10 * len(second)


def write_through(x: Out[Float64[:]], y: Out[Float64[:]]) -> None:
    """Writing through an element of a tuple of arrays writes the array."""
    t = (x, y)
    for v in t:
        v[0] = 7.0
    last = t[-1]
    last[1] = 9.0


def shape_loop(a: Float64[:, :, :]) -> Int64:
    """`for n in a.shape`."""
    p = 1
    for n in a.shape:
        p = p * (n + 1)
    return p


def pairs(x: Int64) -> Int64:
    """`for a, b in ((x, 1), (2, x))` unpacks each element."""
    s = 0
    for a, b in ((x, 1), (2, x)):
        s += a * b
    return s


def tuple_order(a: Int64, b: Int64, c: Int64, d: Int64) -> Int64:
    """`<`, `<=`, `>`, `>=` of two tuples: the first elements that differ
    decide, as CPython orders tuples."""
    left = (a, b)
    right = (c, d)
    return 1000 * Int64(left < right) + 100 * Int64(left <= right) + 10 * Int64(left > right) + Int64(left >= right)


def order_lengths(a: Int64, b: Float64) -> Int64:
    """A tuple that begins the other is the smaller; an Int64 and a Float64
    compare by value; the empty tuple is before every other."""
    t = (a, b)
    longer = Int64(t < (a, b, 0))
    prefix = Int64(t >= (a,))
    mixed = Int64((a, 2.5) > t)
    empty = Int64(() < t)
    widened = Int64((Float64(a), b) <= t)
    return 10000 * longer + 1000 * prefix + 100 * mixed + 10 * empty + widened


def order_nan(x: Float64, y: Float64) -> Int64:
    """A NaN element is unequal to everything, so it decides: every
    ordering of it is false."""
    first = Int64((x, 1.0) < (y, 2.0))
    second = Int64((1.0, x) >= (1.0, y))
    return 10 * first + second


def order_nested(x: Int64, y: Int64) -> Bool:
    """Tuples of tuples, and a chained comparison of tuples."""
    return ((x, 1), y) < ((x, 2), 0) and (0, x) <= (0, y) < (1,)


def tuple_slices(a: Int64, b: Int64, c: Int64) -> Int64:
    """`t[1:]`, `t[:-1]`, `t[::-1]`, `t[::2]`, bounds past the ends and an
    empty slice, each a tuple of the elements picked."""
    t = (a, b, c)
    rest = t[1:]
    init = t[:-1]
    back = t[::-1]
    odd = t[::2]
    past = t[-10:10]
    none = t[2:1]
    down = t[5:0:-2]
    return (10000 * rest[0] + 1000 * init[-1] + 100 * back[0] + 10 * odd[1] + sum(past)
            + 1000000 * len(none) + 100000 * len(down) + down[-1])


def slice_loop(x: Int64, y: Float64) -> Float64:
    """A loop over a slice, a slice compared and a slice of a slice."""
    t = (x, y, 2.5, 4.0)
    acc = 0.0
    for v in t[1::2]:
        acc = 10.0 * acc + v
    head = t[:2]
    same = Int64(head == (x, y))
    return acc + 100.0 * same + t[1:][1:][0]


def tuple_min_max(a: Int64, b: Int64, x: Float64) -> Float64:
    """`min` and `max` of tuples pick by the order of `<`, the first of
    equal ones; of one tuple of tuples too."""
    least = min((a, x), (b, 0.5), (a, 2.0))
    pairs = ((a, b), (b, a), (a, b))
    most = max(pairs)
    return 1000.0 * least[0] + least[1] + 10.0 * most[0] + most[1]


def joined_shape(a: Float64[:, :, :]) -> Float64:
    """`a.shape[:-1] + (3, 3)`: a slice of a shape joined to a tuple, as
    an array's shape; `max` of a list display; a tuple repeated."""
    r = np.zeros(a.shape[:-1] + (3, 3))
    twice = (1, 2) * 2
    r[..., 0, 0] = a[..., 0]
    r[..., 2, 1] = a[..., -1] * 2.0
    head = a.shape[1:] + twice + 2 * (5,)
    return r.sum() + 1000.0 * r.ndim + max([head[0], head[-1], len(head)]) * 0.5 + sum([r.shape[0], 1])


def shape_of_vector(q: Float64[:]) -> Float64:
    """Of a 1-D array, `q.shape[:-1]` is `()`: the result is 3x3."""
    r = np.empty(q.shape[:-1] + (3, 3))
    r[...] = 0.0
    r[..., 1, 2] = q[..., 0] + q[..., 2]
    r[..., 1, 2] *= 2.0
    return r[1, 2] * 10.0 + r.shape[0] + min([q[0], q[1]])
