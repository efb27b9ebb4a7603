# error: writes into input arrays through what POST functions return (views of their arguments), chained targets, views of views and reshapes are the typecheck's; generic helpers that sort or pass on a caller's input array are refused in their instances
import numpy as np
from postyp import Float64, Int64, Out


def fill(out: Out[Float64[:]], value: Float64) -> None:
    out[0] = value


def ident(a: Float64[:]) -> Float64[:]:
    return a


def sort_it(a):
    a.sort()


def pass_on(a):
    fill(a, 1.0)


def helpers(n: Int64, x: Float64[:], m: Float64[:, :]) -> Float64:
    x[0] = x[1] = 1.0
    v = ident(x)
    v[0] = 2.0
    ident(x)[1:] = 3.0
    m[0, :][1] = 4.0
    x.reshape((2, 2))[0, 0] = 5.0
    sort_it(x)
    pass_on(x)
    y = np.zeros(n)
    sort_it(y)
    pass_on(y)
    return 1.0
