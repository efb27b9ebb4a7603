# error: line 5: unsupported construct: dict literal
from postyp import Bool, Float64, Int64, Out

def lookup(k: Int64) -> Int64:
    table = {1: 10, 2: 20}
    return table[k]
