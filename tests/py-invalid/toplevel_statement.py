# error: line 8: statement not allowed at module level (only imports, constants, aliases, __all__, functions and a docstring)
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    return x


for i in range(3):
    f(i)
