# error: tuples and lists beside an element of an unannotated tuple result that may be `None` are the typecheck's, every one, inside refused statements and after other errors too
import numpy as np
from postyp import Float64, Int64


def tuples_beside(x: Float64, a: Float64[:], n: Int64):
    if n > 0:
        return None, x, n
    if n > 1:
        return a, (x, n), (n, x)
    with open("f") as g:
        return a, (x, n), x
    return a, x, n


def lists_beside(x: Float64, a: Float64[:], n: Int64):
    y = undefined_name
    xs = [1.0, 2.0]
    if n > 0:
        return None, xs
    if n > 1:
        return a, xs
    return a, x, n
