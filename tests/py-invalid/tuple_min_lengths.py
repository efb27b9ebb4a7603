# error: line 5: `min` of tuples of different lengths
from postyp import Int64

def least(x: Int64, y: Int64) -> Int64:
    t = min((x, y), (y,))
    return t[0]
