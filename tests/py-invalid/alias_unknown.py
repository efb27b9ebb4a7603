# error: line 4: alias 'g' refers to unknown name 'nosuch'
from postyp import Bool, Float64, Int64, Out

g = nosuch


def f(x: Int64) -> Int64:
    return x
