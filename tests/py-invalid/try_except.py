# error: line 5: unsupported construct: try statement
from postyp import Bool, Float64, Int64, Out

def safe_div(a: Int64, b: Int64) -> Int64:
    try:
        return a // b
    except ZeroDivisionError:
        return 0
