# error: line 5: unsupported construct: augmented assignment to a slice
from postyp import Float64, Out

def bump(a: Out[Float64[:]]) -> None:
    a[1:3] += 1.0
