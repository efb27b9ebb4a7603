# error: line 8: duplicate definition of function 'f' (first defined on line 4)
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    return x


def f(x: Int64) -> Int64:
    return x + 1
