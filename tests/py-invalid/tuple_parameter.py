# error: line 6: a tuple parameter with a default; line 10: a tuple of arrays; line 19: a tuple of three given for two, and a number given for a tuple; line 22: a tuple that may be `None` with a default other than `None`, and one of arrays
import numpy as np
from postyp import Float64, Int64


def offset(x: Float64, by: tuple[Int64, Int64] = (0, 0)) -> Float64:
    return x + by[0]


def rows(a: tuple[Float64[:], Int64]) -> Int64:
    return a[1]


def shift(x: Float64, by: tuple[Int64, Int64]) -> Float64:
    return x + by[0]


def calls(x: Float64) -> Float64:
    return shift(x, (1, 2, 3)) + shift(x, 4)


def maybe(x: Float64, by: tuple[Int64, Int64] | None = (1, 2), of: tuple[Float64[:]] | None = None) -> Float64:
    return x
