# error: names read as values that have none, attributes that values do not have and extents of axes an array does not have are the typecheck's errors, each once, with no echo where the refused values are read
from postyp import Float64, Int64


def helper(x: Float64) -> Float64:
    return x


def names_and_attributes(a: Float64[:], x: Float64) -> Float64:
    f = helper
    u = undefined_thing + 1.0
    v = a.mean_value
    w = x.foo
    y = (x, x).real
    z = "s".real
    return u + f(x) + v + w


def extents(a: Float64[:, :], k: Int64) -> Int64:
    n = a.shape[2]
    m = a.shape[k]
    t = (k, k)
    p = t.shape[0]
    return a.shape[-3]
