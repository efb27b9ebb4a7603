"""Keyword arguments and default parameter values in calls between POST functions."""
import math

import numpy as np
from postyp import Bool, Complex128, Float32, Float64, Int32, Int64, Out
from kwlib.blend import lerp, ramp as quantize, shift

LIMIT = 10


def poly(x: Float64, a: Float64 = 1.0, b: Float64 = -2.0, c: Int64 = 3) -> Float64:
    """a x^2 + b x + c, every coefficient with a default."""
    return a * x * x + b * x + c


def poly_default(x: Float64) -> Float64:
    """Every coefficient left to its default."""
    return poly(x)


def poly_reordered(x: Float64) -> Float64:
    """Keywords in another order than the parameters, one left out."""
    return poly(x, c=1, a=0.5)


def poly_all_keywords(x: Float64) -> Float64:
    """Every argument by keyword, x last."""
    return poly(b=0.25, c=-7, a=2.0, x=x)


def poly_mixed(x: Float64, b: Float64) -> Float64:
    """One positional default overridden, a keyword after it."""
    return poly(x, 3.0, c=0) + poly(x, b=b)


def scaled(x: Float32, s: Float32 = 0.5, shift: Int32 = -2) -> Float32:
    """x s + shift in Float32: a Python float default stays weak."""
    return x * s + Float32(shift)


def scaled_twice(x: Float32) -> Float32:
    """Float32 arithmetic through defaults and a keyword."""
    return scaled(x) + scaled(x, shift=3)


def rotate(z: Complex128, by: Complex128 = 1j) -> Complex128:
    """z by; the default is a quarter turn."""
    return z * by


def rotate_twice(z: Complex128) -> Complex128:
    """Two quarter turns: -z."""
    return rotate(rotate(z))


def clip(n: Int64, limit: Int64 = LIMIT, negative: Bool = False) -> Int64:
    """n clamped to [0, limit] or, when negative, to [-limit, 0]; the limit defaults to a module constant."""
    if negative:
        return max(-limit, min(n, 0))
    return max(0, min(n, limit))


def clip_calls(n: Int64) -> Int64:
    """Defaults, a keyword Bool, a keyword limit."""
    return clip(n) + 100 * clip(n, negative=True) + 10000 * clip(n, limit=3)


def stamp(log: Out[Int64[:]], v: Int64) -> Int64:
    """Records v as the next entry of log (log[0] counts them); 10 v + its position."""
    n = log[0] + 1
    log[0] = n
    log[n] = v
    return 10 * v + n


def pair(a: Int64, b: Int64) -> Int64:
    """1000 a + b."""
    return 1000 * a + b


def keyword_order(log: Out[Int64[:]]) -> Int64:
    """Arguments run as written, not in parameter order: b's stamp comes first."""
    return pair(b=stamp(log, 7), a=stamp(log, 5))


def fill(out: Out[Float64[:]], value: Float64 = 1.5, start: Int64 = 0) -> None:
    """out[start:] = value."""
    for i in range(start, len(out)):
        out[i] = value


def fill_calls(out: Out[Float64[:]]) -> None:
    """A void call with its defaults, then one by keyword from position 2."""
    fill(out)
    fill(start=2, out=out, value=-0.5)


def blend(a: Float64, b: Float64) -> Float64:
    """Imported functions: a default, a keyword, and keywords through an alias."""
    return lerp(a, b) + lerp(a, b, t=0.25) + quantize(a, hi=b, steps=8) + quantize(lo=0.0, x=b)


def smooth(x: Float64, *, weight: Float64, bias: Float64 = 0.0) -> Float64:
    """Keyword-only parameters: `weight` required, `bias` defaulted."""
    return weight * x + bias


def keyword_only_calls(x: Float64) -> Float64:
    """Keyword-only parameters named in any order, defaults filled in, here
    and in another module."""
    return smooth(x, weight=2.0) + smooth(x, bias=-1.0, weight=0.5) + shift(x) + shift(x, times=3, by=-0.25)


HALF_TURN = np.pi / 2 + math.tau


def angle(x: Float64, p_i: Float64 = np.pi, turn: Float64 = math.tau - HALF_TURN) -> Float64:
    """Defaults and a module constant of NumPy's and `math`'s constants
    (ArviZ's `_angle(samples, low, high, p_i=np.pi)`)."""
    return x * p_i + turn


def angles(x: Float64) -> Float64:
    """`angle` with its defaults, and one given."""
    return angle(x) + angle(x, 1.0)


def stretched(x: Float64, k: Int64 = 2, /, offset: Float64 = 0.5) -> Float64:
    """Positional-only parameters (before `/`), one with a default."""
    return x * k + offset


def positional_only_calls(x: Float64) -> Float64:
    """`stretched` by position, with its default, and `offset` by keyword."""
    return stretched(x) + stretched(x, 3) + 10.0 * stretched(x, 3, offset=-1.0) + 100.0 * stretched(x, offset=2.0)


def masked_total(x: Float64[:], mask: Bool[:] = np.empty(shape=(0), dtype=np.bool_), scale: Float64 = 1.0) -> Float64:
    """An array default (cooltools' empty mask), made where a call leaves
    the parameter out."""
    s = 0.0
    for i in range(len(x)):
        if mask.size == 0 or mask[i]:
            s += x[i]
    return s * scale


def weighted(x: Float64[:], w: Float64[:] = np.full(3, 2, dtype=np.float64)) -> Float64:
    """A filled array default."""
    return (x * w).sum()


def array_default_calls(x: Float64[:], m: Bool[:]) -> Float64:
    """The array defaults left out and given."""
    return masked_total(x) + masked_total(x, m, scale=2.0) + 10.0 * weighted(x[:3]) + 100.0 * weighted(x[:3], x[:3])
