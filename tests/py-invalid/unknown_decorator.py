# error: line 4: unknown decorator 'parallel' (POST decorators: ufunc, gpu, kernel, cold, noinline)
from postyp import Bool, Float64, Int64, Out

@parallel
def f(x: Int64) -> Int64:
    return x
