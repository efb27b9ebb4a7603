# error: whole arrays updated in place that NumPy refuses (a result NumPy's `same_kind` rule does not cast to the array's dtype, a result of more axes than the array) and whole arrays whose elements an operator refuses are the typecheck's: every update reported, in the blocks of refused statements too
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


def arithmetic(a: Float64[:], k: Int64[:], x: Float64) -> Float64:
    b = a + "s"
    c = k << 1.5
    d = (a * 2.0) - b"raw"
    return b[0] + c[0] + d[0] + x
