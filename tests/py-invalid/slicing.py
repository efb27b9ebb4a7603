# error: line 6: unsupported construct: slicing (indexing takes one integer per axis)
from postyp import Bool, Float64, Int64, Out

def head_sum(a: Float64[:]) -> Float64:
    s = 0.0
    b = a[1:3]
    for i in range(len(b)):
        s += b[i]
    return s
