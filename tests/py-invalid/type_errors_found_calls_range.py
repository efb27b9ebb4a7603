# error: range and prange called where no for loop runs over them (nor a local holding a range is bound to them) are the typecheck's: all reported, with no echo of what holds them
from postc import prange
import postc
from postyp import Float64, Int64


def g(x: Int64) -> Int64:
    return x


def f(x: Float64[:], c: bool) -> Int64:
    a = g(range(3))
    b = range(3) + 1
    n = len(range(3))
    print(range(3))
    p = prange(3)
    q = postc.prange(3)
    prange(3)
    t = (range(3), 1)
    u = v = range(3)
    w = range(3) if c else 5
    r = range(3, step=1)
    for i in range(3) if c else range(4):
        pass
    for i, j in zip(prange(3), range(4)):
        pass
    for i, y in enumerate(prange(3)):
        pass
    for i in list(range(3)):
        pass
    m = n in range(10)
    o = range(4)
    for i in o:
        pass
    for i, y in zip(range(3), x):
        pass
    return len(x)
