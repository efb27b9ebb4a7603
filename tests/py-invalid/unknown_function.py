# error: line 5: call of unknown function 'print'
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    print(x)
    return x
