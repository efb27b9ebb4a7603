# error: lines 11-14: calls that leave parameters without a value
from postyp import Float64

def scale(x: Float64, k: Float64 = 2.0) -> Float64:
    return x * k

def mix(x: Float64, y: Float64, z: Float64, w: Float64 = 0.0) -> Float64:
    return x + y + z + w

def f(v: Float64) -> Float64:
    return scale(k=v) + mix(w=v)

def g(v: Float64) -> Float64:
    return mix(v, w=1.0)
