# error: line 8: a range local read as a value; line 16: a range local bound twice
from postyp import Int64


def count(n: Int64) -> Int64:
    r = range(n)
    t = 0
    m = len(r)
    for i in r:
        t += i
    return t + m


def twice(n: Int64) -> Int64:
    r = range(n)
    r = range(2 * n)
    t = 0
    for i in r:
        t += i
    return t
