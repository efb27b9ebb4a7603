# error: line 6: a `for` loop over a number, its target unpacking (the iterable is what is wrong)
from postyp import Float64, Int64


def f(n: Int64) -> Float64:
    for k, v in n:
        pass
    return 0.0
