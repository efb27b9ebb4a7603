# error: whole arrays updated in place that NumPy refuses (a result NumPy's `same_kind` rule does not cast to the array's dtype, a result of more axes than the array) are the typecheck's: every update reported, in the blocks of refused statements too
from postyp import Float64, Int64, Out


def updates(a: Out[Int64[:]], m: Float64[:, :], w: Out[Float64[:]], x: Float64) -> Int64:
    a += 1.5
    a *= x
    w += m
    w[1:] += m
    with open("f") as h:
        a -= 0.5
    a += 1
    return a[0]
