# error: 2 errors, all reported at once: line 4: parameter 'x' has no type annotation; line 6: undefined name 'w' (line 5, a list of `x`, echoes the first and is quiet)
from postyp import Bool, Float64, Int64, Out

def f(x, y: Int64) -> Int64:
    z = [x, y]
    return x + w
