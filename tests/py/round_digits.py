"""`round(x, ndigits)` of Python floats: CPython's decimal rounding,
halves to even on the exact binary value, one function per `ndigits`."""
import numpy as np
from postyp import Float32, Float64, Int64


def round_m22(a: Float64[:]) -> Float64[:]:
    out = np.empty_like(a)
    for i in range(len(a)):
        out[i] = round(float(a[i]), -22)
    return out


def round_m5(a: Float64[:]) -> Float64[:]:
    out = np.empty_like(a)
    for i in range(len(a)):
        out[i] = round(float(a[i]), -5)
    return out


def round_m1(a: Float64[:]) -> Float64[:]:
    out = np.empty_like(a)
    for i in range(len(a)):
        out[i] = round(float(a[i]), -1)
    return out


def round_0(a: Float64[:]) -> Float64[:]:
    out = np.empty_like(a)
    for i in range(len(a)):
        out[i] = round(float(a[i]), 0)
    return out


def round_1(a: Float64[:]) -> Float64[:]:
    out = np.empty_like(a)
    for i in range(len(a)):
        out[i] = round(float(a[i]), 1)
    return out


def round_2(a: Float64[:]) -> Float64[:]:
    out = np.empty_like(a)
    for i in range(len(a)):
        out[i] = round(float(a[i]), 2)
    return out


def round_3(a: Float64[:]) -> Float64[:]:
    out = np.empty_like(a)
    for i in range(len(a)):
        out[i] = round(float(a[i]), 3)
    return out


def round_7(a: Float64[:]) -> Float64[:]:
    out = np.empty_like(a)
    for i in range(len(a)):
        out[i] = round(float(a[i]), 7)
    return out


def round_15(a: Float64[:]) -> Float64[:]:
    out = np.empty_like(a)
    for i in range(len(a)):
        out[i] = round(float(a[i]), 15)
    return out


def round_16(a: Float64[:]) -> Float64[:]:
    out = np.empty_like(a)
    for i in range(len(a)):
        out[i] = round(float(a[i]), 16)
    return out


def round_17(a: Float64[:]) -> Float64[:]:
    out = np.empty_like(a)
    for i in range(len(a)):
        out[i] = round(float(a[i]), 17)
    return out


def round_22(a: Float64[:]) -> Float64[:]:
    out = np.empty_like(a)
    for i in range(len(a)):
        out[i] = round(float(a[i]), 22)
    return out


def numpy_scalars(a: Float64[:], b: Float32[:]) -> Float64:
    """Of a NumPy float, NumPy's round in its own dtype."""
    s = 0.0
    for i in range(len(a)):
        s += round(a[i], 2) * (i + 1) + round(b[i], 1)
    return s


def of_ints(k: Int64, n: Int64) -> Int64:
    """Of a Python int, the int itself; of a Python bool, 0 or 1."""
    return round(int(k), 3) + round(int(n) > 2, 1) + round(k, 2)
