# error: line 7: `ndigits` not a constant; line 8: a Python float to more than 22 places; line 9: a Python int to negative places; line 10: a NumPy Bool (CPython's TypeError); line 11 compiles
from postyp import Bool, Float64, Int64


def cents(x: Float64, n: Int64, b: Bool) -> Float64:
    s = 0.0
    s += round(x, n)
    s += round(float(x), 23)
    s += round(int(n), -1)
    s += round(b, 1)
    s += round(x, 40) + round(float(x), -22)
    return s
