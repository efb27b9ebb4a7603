"""Values bound to a local before they are used, each a form the
typecheck once left untyped when bound (an internal error) though it
compiled as an operand or a result: `postc.math.f(x)`, an alias of an
intrinsic, a POST call writing a fresh array, a conditional expression
testing `and` of numbers, a chain of tuple comparisons, a variance with
`ddof=`."""
import numpy as np
import postc.math
from postc import empty
from postc.math import lgamma
from postyp import Bool, Float64, Int64, Out

gammaln = lgamma


def fill(flags: Out[Bool[:]]) -> Int64:
    """Sets every other flag; how many it set."""
    n = 0
    for i in range(0, len(flags), 2):
        flags[i] = True
        n += 1
    return n


def bound(x: Float64, k: Int64, flag: Int64) -> Float64:
    """Each value bound to a local first."""
    r = postc.math.sqrt(x * x + 1.0)
    g = gammaln(x + 2.0)
    f = empty(k + 1, Bool)
    set_count = fill(f)
    pick = 3 if flag and x else 4
    ordered = (0, x) <= (0, r) < (1,)
    a = np.array([x, r, g])
    spread = np.nanstd(a, ddof=1)
    corner = a.reshape((1, 3)).T[2, 0]
    return r + g + set_count + pick + ordered + spread + corner
