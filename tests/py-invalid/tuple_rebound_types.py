# error: line 7: an element of a tuple local bound again to a value of another type
from postyp import Int64

def relabel(x: Int64) -> Int64:
    t = (x, 1)
    if x > 0:
        t = ("x", 2)
    return t[1]
