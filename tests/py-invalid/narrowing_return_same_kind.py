# error: lines 6 and 10: a return that narrows within a kind (Int64 to Int32, Float64 to Float32) is refused like one across kinds
from postyp import Float32, Float64, Int32, Int64


def low_word(x: Int64) -> Int32:
    return x


def single(x: Float64) -> Float32:
    return x * 2.0


def widened(x: Int32, y: Float32) -> Int64:
    return x + 1


def weak(y: Float32) -> Float32:
    return y + 0.5
