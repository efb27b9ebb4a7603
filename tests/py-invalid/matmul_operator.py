# error: line 5: unsupported construct: '@' (matrix multiplication operator)
from postyp import Bool, Float64, Int64, Out

def product(a: Float64[:, :], b: Float64[:, :], c: Out[Float64[:, :]]) -> None:
    c[0, 0] = (a @ b)[0, 0]
