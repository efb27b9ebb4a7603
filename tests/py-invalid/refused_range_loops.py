# error: the ranges loops run over are checked by the typecheck: keywords, counts of arguments, arguments that are not integers, a zero step, each loop once and its body still checked
from postyp import Float64, Int64


def loops(a: Float64[:], n: Int64, x: Float64) -> Int64:
    for i in range(n, step=2):
        n += undefined_in_body
    for i in range():
        n += 1
    for i in range(1, 2, 3, 4):
        n += 1
    for i in range(x):
        n += 1
    for i in range(0, n, 0):
        n += 1
    for i in range(0, a):
        n += 1
    return n
