# error: line 5: syntax error: invalid character '$'
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    return x $ 2
