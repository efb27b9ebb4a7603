# error: line 5: `round` with a number of digits
from postyp import Float64

def cents(x: Float64) -> Float64:
    return round(x, 2)
