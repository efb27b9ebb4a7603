# error: line 6: enumerate gives an index and an element, bound to one name
from postyp import Bool, Float64, Int64, Out

def total(a: Float64[:]) -> Float64:
    s = 0.0
    for pair in enumerate(a):
        s += 1.0
    return s
