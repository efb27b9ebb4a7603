# error: line 7: ufunc signature '(n),(n)->()' has 2 inputs but 'rowdot' has 3 parameters
from postyp import Bool, Float64, Int64, Out

from postc import ufunc


@ufunc("(n),(n)->()")
def rowdot(a: Float64[:], b: Float64[:], w: Float64[:]) -> Float64:
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i] * w[i]
    return s
