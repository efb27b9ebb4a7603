# error: expressions the lowering would refuse are the typecheck's errors: a constant operand its dtype cannot hold, a tuple meeting an array in arithmetic, `-` of a tuple, `in` of what is not a tuple, arrays compared inside tuples or in a chain, members of `math` read as values, an array indexed by a tuple local of the wrong length or of a float, and the elements of `divmod`, `sum`, `min` and `max` of tuples
import math

from postyp import Float64, Int8, Int64, UInt8


def constants(a: Int8[:], b: UInt8[:]) -> Int64:
    x = a[0] + 300
    y = -1 + b[0]
    return x + y


def tuples_and_arrays(a: Float64[:], i: Int64) -> Float64:
    t = (1.0, 2.0)
    u = t + a
    v = a * t
    w = -t
    return u[0] + v[0] + w[0]


def comparisons(a: Float64[:], i: Int64) -> bool:
    p = i in 3
    q = i in (1, a)
    r = (1, a) == (1, a)
    s = 0.0 < a < 1.0
    return p and q and r and s


def namespace_members(x: Float64) -> Float64:
    f = math.sin
    return math.nothing


def index_tuples(a: Float64[:, :]) -> Float64:
    t = (1, 2, 3)
    u = (1.0, 2)
    return a[t] + a[u]


def builtins_of_tuples(a: Float64[:], i: Int64) -> Float64:
    q = divmod(i)
    r = divmod(i, "s")
    s = sum((1.0, a))
    t = sum((1.0, "s"))
    m = min((1.0, 2.0), (1.0, 2j))
    n = max((1.0, 2.0), (1.0, "s"))
    return 0.0
