# error: line 6: 'break' outside a loop
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    if x > 0:
        break
    return x
