# error: line 5: syntax error: '(' is never closed
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    return (x + 1
