# error: line 5: tuples ordered with `<`
from postyp import Bool, Int64

def before(x: Int64, y: Int64) -> Bool:
    return (x, y) < (y, x)
