# error: line 4: unsupported construct: **kwargs parameter
from postyp import Bool, Float64, Int64, Out

def configure(x: Int64, **kwargs) -> Int64:
    return x
