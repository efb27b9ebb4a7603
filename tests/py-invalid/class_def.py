# error: line 4: unsupported construct: class definition
from postyp import Bool, Float64, Int64, Out

class Point:
    x: Float64
    y: Float64


def norm1(x: Float64, y: Float64) -> Float64:
    return abs(x) + abs(y)
