# error: line 6: syntax error: 'else' without a matching 'if'
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    y = x
    else:
        y = 0
    return y
