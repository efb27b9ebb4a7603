# error: `None` read where compiled code needs a number or an array is the typecheck's: indexed, an attribute's base, an element of a tuple or list display, unpacked, an argument of a builtin or of `np.roll` (`offset=` of `np.trace`), a tuple's index; the value of `and` or `or` of `None`
import numpy as np
from postyp import Float64, Int64


def indexed_and_attributes(x: Float64, t: tuple[Float64, Float64]) -> Float64:
    a = None[0]
    b = None.real
    c = t[None]
    return a + b + c + x


def displays(x: Float64) -> Float64:
    t = (x, None)
    xs = [1.0, None]
    u = np.array([x, None])
    print((x, None))
    i, j = (x, None)
    k, m = None
    return x


def builtins(x: Float64, n: Int64) -> Float64:
    a = len(None)
    b = abs(None)
    c = min(None, x)
    d = round(x, None)
    e = int(None)
    for i in range(None):
        x += 1.0
    for i, v in enumerate(None):
        x += v
    return x + a + b + c + d + e


def shifted(a: Float64[:]) -> Float64:
    r = np.roll(a, None)
    t = np.trace(np.eye(3), offset=None)
    return (a[0] > 0.0) or None
