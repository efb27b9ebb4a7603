# error: line 4: unknown decorator 'staticmethod'
from postyp import Bool, Float64, Int64, Out

@staticmethod
def f(x: Int64) -> Int64:
    return x
