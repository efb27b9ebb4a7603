# error: line 5: unsupported construct: tuple assignment (assign one name at a time)
from postyp import Bool, Float64, Int64, Out

def swap_sum(x: Int64, y: Int64) -> Int64:
    a, b = y, x
    return a - b
