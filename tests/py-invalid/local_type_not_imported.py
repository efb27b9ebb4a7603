# error: lines 5, 6: a local annotated with a postyp dtype the module does not import, and with a name that is no type
from postyp import Int64

def narrow(x: Int64) -> Int64:
    y: Int32 = x
    z: Widget = x
    return y + z
