"""Tuple parameters of numbers (`x_offset: tuple[Int64, Int64]`, as
datashader passes offsets): a tuple local inside the function, indexed,
unpacked, measured and looped over; each element one parameter in the
IR. Called with tuple displays, tuple locals and `a.shape`, each element
converted as a scalar argument is."""
import numpy as np
from postyp import Bool, Float32, Float64, Int32, Int64


def shifted(x: Float64, by: tuple[Int64, Float64]) -> Float64:
    """Unpacked, indexed and measured."""
    lo, step = by
    return x * step + lo + by[0] * len(by)


def window_sum(a: Float64[:], bounds: tuple[Int64, Int64]) -> Float64:
    """A range from a tuple's elements."""
    s = 0.0
    for i in range(bounds[0], bounds[1]):
        s += a[i]
    return s


def area(shape: tuple[Int64, Int64], scale: Float32) -> Float32:
    """`a.shape` passed as a tuple; a Float32 result."""
    h, w = shape
    return Float32(h * w) * scale


def weighted(ws: tuple[Float64, Float64, Float64], flags: tuple[Bool, Int32]) -> Float64:
    """A loop over a tuple parameter; a Bool element."""
    t = 0.0
    for w in ws:
        t = t * 10.0 + w
    if flags[0]:
        t = -t
    return t + flags[1]


def calls(a: Float64[:], lo: Int64, hi: Int64, x: Float64) -> Float64:
    """Tuple displays, a tuple local and a shape as arguments; Int64
    elements given to a Float64 element."""
    bounds = (lo, hi)
    m = np.zeros((lo + 1, 3))
    return (window_sum(a, bounds) + shifted(x, (hi, 0.5)) + shifted(1.0, bounds)
            + area(m.shape, Float32(0.5)) + weighted((1.0, 2, x), (lo > 1, 7)))
