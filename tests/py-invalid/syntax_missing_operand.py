# error: line 5: syntax error: expected an expression after '+'
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    return x +
