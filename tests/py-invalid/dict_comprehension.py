# error: line 5: unsupported construct: dict comprehension
from postyp import Bool, Float64, Int64, Out

def count_keys(n: Int64) -> Int64:
    table = {i: i * i for i in range(n)}
    return len(table)
