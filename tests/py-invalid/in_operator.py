# error: line 5: unsupported construct: 'in' comparison
from postyp import Bool, Float64, Int64, Out

def small_prime(n: Int64) -> Bool:
    return n in range(10)
