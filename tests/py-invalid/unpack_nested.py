# error: line 5: nested tuple target
from postyp import Int64

def f(x: Int64, y: Int64) -> Int64:
    (a, b), c = (x, y), x
    return c
