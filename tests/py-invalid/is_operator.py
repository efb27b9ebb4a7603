# error: line 5: unsupported construct: 'is' comparison
from postyp import Bool, Float64, Int64, Out

def same(a: Int64, b: Int64) -> Bool:
    return a is b
