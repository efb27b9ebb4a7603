# error: 3 errors, all reported at once: line 4: parameter 'x' has no type annotation; line 5: unsupported construct: list literal; line 6: undefined name 'w'
from postyp import Bool, Float64, Int64, Out

def f(x, y: Int64) -> Int64:
    z = [x, y]
    return x + w
