# error: a number or an element updated with a tuple (`x += t`, `a[0] *= t`) is the typecheck's error, with the message of the tuple's arithmetic
from postyp import Float64, Int64, Out


def updates(a: Out[Float64[:]], i: Int64) -> Float64:
    t = (1.0, 2.0)
    a[0] += t
    x = 1.0
    x *= t
    return x
