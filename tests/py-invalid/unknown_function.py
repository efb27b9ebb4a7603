# error: line 5: call of unknown function 'input'
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    input(x)
    return x
