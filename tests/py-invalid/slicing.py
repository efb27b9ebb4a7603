# error: line 5: `%=` on a slice is not supported
from postyp import Float64, Out

def bump(a: Out[Float64[:]]) -> None:
    a[1:3] %= 2.0
