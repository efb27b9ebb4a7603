# error: line 9: unsupported construct: else clause of a while loop
from postyp import Bool, Float64, Int64, Out

def halvings(n: Int64) -> Int64:
    k = 0
    while n > 1:
        n //= 2
        k += 1
    else:
        k += 100
    return k
