"""Array locals bound to a new array on one path and to an input array
on another: a write is accepted where only the new array can reach it."""
import numpy as np
from postyp import Float64, Int64


def padded_sum(x: Float64[:], padding: Int64) -> Float64:
    """Padded with zeros when asked, else the input itself (read only)."""
    if padding > 0:
        x_pad = np.zeros(x.shape[0] + 2 * padding)
        x_pad[padding:-padding] = x
    else:
        x_pad = x
    s = 0.0
    for i in range(x_pad.shape[0]):
        s += x_pad[i] * (i + 1)
    return s


def copied_then_written(x: Float64[:]) -> Float64:
    """A parameter rebound to its copy may be written; the caller's array
    is unchanged."""
    x = x.copy()
    x[0] = 100.0
    return x[0] + x[x.shape[0] - 1]


def swapped(x: Float64[:], k: Int64) -> Float64:
    """After `y, z = z, y` the new array is `y`."""
    y = x
    z = np.zeros(x.shape[0])
    y, z = z, y
    y[k] = 7.0
    return y.sum() + z.sum()


def doubled(a: Float64[:]) -> Float64[:]:
    b = a * 2.0
    return b


def every_other(a: Float64[:]) -> Float64[:]:
    return a[::2]


def written_result(x: Float64[:]) -> Float64:
    """What a callee returns new may be written."""
    y = doubled(x)
    y[0] = -1.0
    return y.sum()


def written_view_of_new(x: Float64[:]) -> Float64[:]:
    """A callee's view of a new array writes that array."""
    z = x.copy()
    v = every_other(z)
    v[0] = 0.5
    return z


def last_binding_wins(x: Float64[:], n: Int64) -> Float64:
    """Each iteration binds `buf` to a new array before writing it."""
    total = 0.0
    buf = x
    for i in range(n):
        buf = np.ones(3)
        buf[1] = i
        total += buf.sum()
    return total + buf[0]
