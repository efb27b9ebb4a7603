# error: line 5: unsupported construct: list comprehension
from postyp import Bool, Float64, Int64, Out

def count_even(n: Int64) -> Int64:
    evens = [i for i in range(n) if i % 2 == 0]
    return len(evens)
