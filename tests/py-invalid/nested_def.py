# error: line 5: unsupported construct: nested function definition
from postyp import Bool, Float64, Int64, Out

def outer(x: Int64) -> Int64:
    def inner(y: Int64) -> Int64:
        return y + 1
    return inner(x)
