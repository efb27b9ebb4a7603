# error: line 5: 'and' needs Bool operands, got Int64 and Int64
from postyp import Bool, Float64, Int64, Out

def both(a: Int64, b: Int64) -> Int64:
    return a and b
