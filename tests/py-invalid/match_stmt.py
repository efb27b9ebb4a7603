# error: line 5: unsupported construct: match statement
from postyp import Bool, Float64, Int64, Out

def name_code(n: Int64) -> Int64:
    match n:
        case 0:
            return 10
        case _:
            return 20
