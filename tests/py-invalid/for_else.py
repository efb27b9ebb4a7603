# error: line 8: unsupported construct: else clause of a for loop
from postyp import Bool, Float64, Int64, Out

def find(a: Int64[:], v: Int64) -> Int64:
    for i in range(len(a)):
        if a[i] == v:
            return i
    else:
        return -1
