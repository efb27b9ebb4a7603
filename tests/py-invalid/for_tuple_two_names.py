# error: line 6: a `for` loop unpacking into two names an element that is not a pair
from postyp import Int64

def f(x: Int64) -> Int64:
    s = 0
    for a, b in ((x, 1), x):
        s += a * b
    return s
