# error: line 5: a tuple ordered against a number
from postyp import Bool, Int64

def before(x: Int64, y: Int64) -> Bool:
    return (x, y) < x
