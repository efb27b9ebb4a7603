# error: line 5: unsupported construct: assigning to a slice
from postyp import Float64, Out

def clear(a: Out[Float64[:]]) -> None:
    a[1:3] = 0.0
