# error: line 5: a 2-D array does not fit a 1-D slice
from postyp import Float64, Out

def put(a: Out[Float64[:]], b: Float64[:, :]) -> None:
    a[1:] = b
