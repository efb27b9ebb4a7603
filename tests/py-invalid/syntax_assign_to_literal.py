# error: line 5: syntax error: cannot assign to a literal
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    1 = x
    return x
