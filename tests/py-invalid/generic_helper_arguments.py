# error: 4 errors, all reported at once: line 19: argument 1 of `h` is `None`; line 19: a list; line 10: a caller passes its input array to a helper that writes it; line 14: undefined name in a helper, reported once for its two instances (no echo at its calls)
from postyp import Float64


def h(v):
    return v


def w(a):
    a[0] = 1.0


def bad_body(a):
    return a + undefined_name


def g(x: Float64, a: Float64[:]) -> Float64:
    w(a)
    return h(None) + h([1.0]) + x + bad_body(x) + bad_body(1)
