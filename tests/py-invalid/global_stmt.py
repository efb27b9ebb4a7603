# error: line 8: unsupported construct: global statement
from postyp import Bool, Float64, Int64, Out

COUNT: Int64 = 0


def bump(n: Int64) -> Int64:
    global COUNT
    COUNT = COUNT + n
    return COUNT
