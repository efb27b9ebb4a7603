# error: line 5: unsupported construct: set comprehension
from postyp import Bool, Float64, Int64, Out

def distinct_mod(n: Int64) -> Int64:
    seen = {i % 7 for i in range(n)}
    return len(seen)
