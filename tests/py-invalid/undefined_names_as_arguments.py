# error: an undefined name given as an argument is the typecheck's to report, once: a dtype argument that is one is not reported again as an unknown dtype, and the call's own errors are reported beside it; so is one indexed
import numpy as np
from postyp import Float64, Int64


def g(x: Float64) -> Float64:
    return x


def f(x: Float64, n: Int64, a: Float64[:]) -> Float64:
    b = np.zeros(n, Foo)
    c = np.zeros(n, dtype=Bar)
    d = g(x, baz)
    e = a.astype(Qux)
    h = np.sum(a, axis=quux)
    k = len(a, corge)
    m = max(x, grault)
    p = Float64(garply)
    return b[0] + c[0] + d + e[0] + h + k + m + p


def indexed(x: Float64) -> Float64:
    return undefined_table[0] + x
