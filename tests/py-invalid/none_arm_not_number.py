# error: 3 errors, all reported at once: line 6: a tuple beside a `None` arm; line 7: an array beside a `None` arm; line 8: a `None` arm returned from a function whose result is never None
from postyp import Bool, Float64


def f(c: Bool, a: Float64[:]) -> Float64:
    t = (1, 2) if c else None
    b = a if c else None
    return None if c else 1.0
