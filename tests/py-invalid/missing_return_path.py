# error: line 4: 'sign' returns Int64 but can reach the end of its body without a return
from postyp import Bool, Float64, Int64, Out

def sign(x: Int64) -> Int64:
    if x > 0:
        return 1
    elif x < 0:
        return -1
