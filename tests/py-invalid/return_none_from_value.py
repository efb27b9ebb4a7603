# error: line 6: `return None` in a function returning Int64
from postyp import Int64

def sign(x: Int64) -> Int64:
    if x == 0:
        return None
    return 1
