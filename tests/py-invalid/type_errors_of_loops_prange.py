# error: `break` out of a parallel `prange` loop is the typecheck's error, each once, with the errors around it still reported; a `prange` inside another runs serially and may break
from postc import prange
from postyp import Float64, Int64, Out


def breaks(a: Out[Float64[:]], n: Int64) -> None:
    for i in prange(n):
        if a[i] > 0.0:
            break
        a[i] = undefined_one
    for i in prange(n):
        for j in range(n):
            if j > i:
                break
        while a[i] > 1.0:
            a[i] -= 1.0
            break
        if a[i] < 0.0:
            break
    for i in prange(n):
        for j in prange(n):
            if j > i:
                break
        a[i] = 0.0


def refused_outer(a: Out[Float64[:]], n: Int64) -> None:
    for i, j in prange(n):
        for k in prange(n):
            if k > 1:
                break
        break
    for i in prange(n):
        for v in 1.5:
            break
        if i > 2:
            break
    for i in prange(1.5):
        a[i] = "no"
        break
