# error: line 6: a scalar local bound again to a tuple
from postyp import Int64

def f(x: Int64) -> Int64:
    y = x
    y = (x, x)
    return x
