# error: lines 7, 9, 11: raise of a non-built-in exception, a computed message, a bare raise
from postyp import Int64


def check(n: Int64) -> Int64:
    if n == 0:
        raise KeyboardInterrupt("stop")
    if n == 1:
        raise ValueError(n)
    if n == 2:
        raise
    return n
