# error: line 6: unsupported construct: yield (generator function)
from postyp import Bool, Float64, Int64, Out

def countdown(n: Int64) -> Int64:
    while n > 0:
        yield n
        n -= 1
