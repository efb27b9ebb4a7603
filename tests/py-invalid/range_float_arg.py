# error: line 6: range() needs integer arguments, got Float64
from postyp import Bool, Float64, Int64, Out

def count(x: Float64) -> Int64:
    c = 0
    for i in range(x):
        c += 1
    return c
