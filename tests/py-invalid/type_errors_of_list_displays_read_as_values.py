# error: a list display read where compiled code needs a number or an array is the typecheck's: an argument of a `math`, NumPy or `postc.math` function of numbers, of a cast, of `len`, `abs`, `round`, `range` or `enumerate`, of `np.linspace`, `np.roll` or `np.where`, `axis=` and the order of `np.linalg.norm`, an index, an attribute's base, an argument of `print`, an operand of `and` in a condition
import math

import numpy as np
import postc
from postyp import Float64, Int64


def functions(x: Float64) -> Float64:
    a = np.sqrt([1.0])[0] + math.sqrt([x]) + postc.math.sqrt([x]) + Float64([x]) + np.float64([x])
    b = len([x]) + abs([x]) + round(x, [1])
    c = np.linspace(0.0, [1.0], 3)[0] + np.roll(np.zeros(3), [1])[0] + np.where(x > 0, [1.0], 2.0)
    return a + b + c + max([1.0], x)


def places(x: Float64, a: Float64[:]) -> Float64:
    t = 0.0
    for k in range([3]):
        t += 1.0
    for i, v in enumerate([1.0, x]):
        t += v
    b = np.sum(a, axis=[0]) + a[[0]] + [x].real
    print([x])
    if [x] and x > 0.0:
        return np.linalg.norm(a, [1.0])
    return b + t
