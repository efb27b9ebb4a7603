# error: `*` in a tuple read as a value (assigned, an argument, returned) is the typecheck's to refuse: every one reported, with no echo in what reads the tuple
from postyp import Float64, Int64


def g(t: tuple[Float64, Float64]) -> Float64:
    return t[0]


def f(x: Float64, n: Int64) -> Float64:
    t = (*(x, x), x)
    u = g((x, *(x,)))
    v = (x, *t, *u)
    with open("f") as h:
        w = (*t,)
    return x
