# error: line 5: unsupported construct: generator expression
from postyp import Bool, Float64, Int64, Out

def sum_squares(n: Int64) -> Int64:
    return sum(i * i for i in range(n))
