# error: `None` where a number is read (an operand of arithmetic, of a unary operator or of an ordering) is the typecheck's to refuse: every one reported, in the blocks of refused statements too, with no echo in what holds it; so is a list display indexed or an operand
from postyp import Float64, Int64


def f(a: Float64[:], x: Float64, n: Int64) -> Float64:
    y = 2.0 * None
    z = -None
    if None < x:
        y = x ** None
    w = None + None
    with open("f") as h:
        v = x - None
    return x + y + z + w


def lists(x: Float64, n: Int64) -> Float64:
    w = [0.25, 0.5, 0.25][n]
    v = [x] * 2
    return w + v[0] + x
