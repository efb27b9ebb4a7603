# error: line 7: a tuple local bound again to a tuple of another length
from postyp import Int64

def grow(x: Int64) -> Int64:
    t = (x, x)
    if x > 0:
        t = (x, x, x)
    return t[0]
