# error: 5 errors, all reported at once: line 6: a `None` arm used as a number; line 8: `and` of a Bool that may be None as a value; line 9: `is` between two values that may be None; line 10: a complex arm beside `None`; line 11: `== None` in a chain (line 12, `or` of a float that may be None in a condition, reads its truth: accepted)
from postyp import Bool, Float64


def f(x: Float64 | None, c: Bool, y: Float64, p: Bool | None) -> Float64:
    z = 2.0 * (y if c else None)
    w = y
    b = p and c
    s = x is x
    q = 1j if c else None
    u = x == None == c
    if x or c:
        return 1.0
    return 0.0
