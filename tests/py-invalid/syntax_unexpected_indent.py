# error: line 6: syntax error: unexpected indent
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    y = x + 1
        return y
