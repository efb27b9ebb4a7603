# error: returns of what an annotated function does not return are the typecheck's errors, every return reported, its value still checked
from postyp import Float32, Float64, Int64


def scalar(x: Float64, n: Int64, flag: bool) -> Int64:
    if flag:
        return
    if n > 0:
        return None
    if n > 1:
        return x
    if n > 2:
        return np_undefined(x)
    return n


def array(a: Float64[:], b: Float32[:], m: Float64[:, :], x: Float64) -> Float64[:]:
    if x > 0.0:
        return b
    if x > 1.0:
        return m
    if x > 2.0:
        return x
    return a
