# error: line 4: syntax error: expected ':' after the function signature
from postyp import Bool, Float64, Int64, Out

def twice(x: Int64) -> Int64
    return 2 * x
