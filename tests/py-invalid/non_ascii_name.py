# error: line 4: the name `fé` is not ASCII
from postyp import Int64

def fé(x: Int64) -> Int64:
    return x
