# error: line 6: a tuple repeated a number of times known only when run; line 7: a tuple joined to a number; line 8: a tuple subtracted
from postyp import Int64

def f(x: Int64) -> Int64:
    t = (x, 1)
    u = t * x
    v = t + 1
    w = t - t
    return u[0] + v[0] + w[0]
