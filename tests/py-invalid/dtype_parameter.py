# error: line 13: a parameter annotated `np.dtype` (a dtype given when called); line 18: a compiled call of a function with a dtype parameter
import numpy as np
from postyp import Float32, Float64, Int64


def filled(n: Int64, dtype: type[Float32], x: Float64):
    out = np.empty(n, dtype=dtype)
    for i in range(n):
        out[i] = x * i
    return out, dtype(x)


def bad(n: Int64, dt: np.dtype) -> Int64:
    return n


def caller(n: Int64) -> Int64:
    a, b = filled(n, np.float32, 1.0)
    return n
