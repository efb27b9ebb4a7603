# error: line 5: two targets, three values
from postyp import Int64

def f(x: Int64, y: Int64) -> Int64:
    a, b = x, y, x
    return a
