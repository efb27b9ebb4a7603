# error: line 5: a conditional expression between tuples of different lengths
from postyp import Int64

def f(x: Int64, y: Int64) -> Int64:
    t = (x, y) if x < y else (x, y, 0)
    return t[0]
