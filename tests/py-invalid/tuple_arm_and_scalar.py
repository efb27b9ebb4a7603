# error: line 5: a conditional expression between a tuple and a scalar
from postyp import Int64

def f(x: Int64) -> Int64:
    t = (x, 1) if x > 0 else x
    return x
