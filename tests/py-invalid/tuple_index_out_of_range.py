# error: line 6: a constant index past the end of a tuple
from postyp import Int64

def pair(x: Int64) -> Int64:
    t = (x, x + 1)
    return t[0] + t[2]
