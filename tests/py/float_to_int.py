"""Python ints made of floats: `int(x)`, `round(x)` (halves to even) and
`math.floor`, `math.ceil`, `math.trunc`, of Float64, Float32 and Float16
values and of Python floats, as CPython makes them: NaN raises
ValueError, an infinity OverflowError. A Python int of compiled code is an
Int64, so where CPython would make a larger one the call panics with the
OverflowError NumPy raises when that int meets an Int64, instead of giving
a wrong value."""
import math
from math import ceil, floor
from postyp import Bool, Float16, Float32, Float64, Int64, UInt64


def to_int(x: Float64) -> Int64:
    """int(x) truncates toward zero."""
    return int(x)


def to_int_f32(x: Float32) -> Int64:
    """int of a Float32, taken exactly as a Python float."""
    return int(x)


def rounded(x: Float64) -> Int64:
    """round(x): the nearest int, halves to the even one."""
    return round(x)


def rounded_narrow(x: Float32, h: Float16) -> Int64:
    """round of a Float32 and of a Float16."""
    return 1000 * round(x) + round(h)


def rounded_ints(n: Int64, u: UInt64, b: Bool) -> Int64:
    """round of an int is the int; of a UInt64 from 2**63 up, an int beyond
    Int64; of a Python bool, 0 or 1."""
    flag = bool(b)
    return round(n) + 10 * round(flag) + 100 * (round(u) % 1000)


def rounding(k: Int64, x: Float64) -> Int64:
    """math.floor, ceil and trunc, also imported by name."""
    if k == 0:
        return math.floor(x)
    if k == 1:
        return math.ceil(x)
    if k == 2:
        return math.trunc(x)
    if k == 3:
        return floor(x)
    return ceil(x)


def bucket(x: Float64, lo: Float64, width: Float64) -> Int64:
    """A histogram bucket of x, `int((x - lo) / width)`: a bin past Int64
    or a NaN coordinate panics where it is computed."""
    return int((x - lo) / width)


def scaled_sum(x: Float64, n: Int64) -> Int64:
    """Sums `round(x * i)` for i in 1..n: the panic comes once the product
    leaves Int64's range."""
    total = 0
    for i in range(1, n + 1):
        total += round(x * i) % 7
    return total
