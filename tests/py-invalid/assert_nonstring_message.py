# error: line 5: assert message must be a string literal
from postyp import Bool, Float64, Int64, Out

def check(x: Int64) -> Int64:
    assert x > 0, x
    return x
