"""Functions that return nothing: `-> None`, a bare `return` and `return None`."""
from postyp import Float64, Int64, Out


def clear(out: Out[Float64[:]]) -> None:
    """out[:] = 0, falling off the end."""
    for i in range(len(out)):
        out[i] = 0.0


def fill_until_negative(src: Float64[:], out: Out[Float64[:]]) -> None:
    """Copies src into out up to its first negative element; a bare `return` stops it."""
    for i in range(len(src)):
        if src[i] < 0.0:
            return
        out[i] = src[i]


def scale_unless_zero(out: Out[Float64[:]], k: Float64) -> None:
    """out *= k, except that k == 0 leaves out alone through `return None`."""
    if k == 0.0:
        return None
    for i in range(len(out)):
        out[i] *= k
    return None


def count_into(out: Out[Int64[:]], n: Int64):
    """No return annotation is `-> None` too: out[0] = number of i < n with i % 3 == 0."""
    c = 0
    for i in range(n):
        if i % 3 == 0:
            c += 1
    out[0] = c


def steps(src: Float64[:], out: Out[Float64[:]], k: Float64, counts: Out[Int64[:]]) -> Int64:
    """Calls of the functions above as statements; returns out's first element as an integer."""
    fill_until_negative(src, out)
    scale_unless_zero(out, k)
    count_into(counts, len(src))
    if len(out) == 0:
        return 0
    return Int64(out[0])
