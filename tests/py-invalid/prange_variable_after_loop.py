# error: line 7: the prange variable, read after the loop (line 9); line 13: read in the else clause of a later loop over the same name (line 18: no iteration rebinds it there); the second prange loop of `twice` rebinds `i` before reading it: accepted
from postc import prange
from postyp import Float64, Int64, Out


def last(out: Out[Float64[:]], n: Int64) -> Int64:
    for i in prange(n):
        out[i] = 1.0
    return i


def in_else(out: Out[Float64[:]], n: Int64) -> Int64:
    for i in prange(n):
        out[i] = 1.0
    for i in range(n):
        out[i] += 1.0
    else:
        return i
    return 0


def twice(out: Out[Float64[:]], n: Int64) -> None:
    for i in prange(n):
        out[i] = i * 2.0
    for i in prange(n):
        out[i] += 1.0
