# error: 2 errors, all reported at once: line 7: unsupported construct: nested function definition; line 8: unsupported construct: nonlocal statement
from postyp import Bool, Float64, Int64, Out

def outer(x: Int64) -> Int64:
    total = x

    def add(y: Int64) -> None:
        nonlocal total
        total = total + y

    add(1)
    return total
