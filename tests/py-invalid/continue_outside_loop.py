# error: line 5: 'continue' outside a loop
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    continue
    return x
