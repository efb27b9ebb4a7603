# error: line 5: the built-in `sum` of an array
from postyp import Float64

def total(a: Float64[:]) -> Float64:
    return sum(a)
