# error: lines 6 and 7: the empty tuple indexed at run time, and its `min`
from postyp import Int64

def f(i: Int64) -> Int64:
    t = ()
    a = t[i]
    return min(t)
