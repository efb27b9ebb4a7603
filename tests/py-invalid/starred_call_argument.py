# error: line 9: unsupported construct: starred argument *xs in a call
from postyp import Bool, Float64, Int64, Out

def add3(a: Int64, b: Int64, c: Int64) -> Int64:
    return a + b + c


def call_it(a: Int64[:]) -> Int64:
    return add3(*a)
