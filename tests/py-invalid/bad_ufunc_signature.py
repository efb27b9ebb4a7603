# error: line 7: bad ufunc signature '(n),(n)->': expected an operand after '->'
from postyp import Bool, Float64, Int64, Out

from postc import ufunc


@ufunc("(n),(n)->")
def rowdot(a: Float64[:], b: Float64[:]) -> Float64:
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s
