# error: names read as values that have none and attributes that values do not have are the typecheck's errors, each once, with no echo where the refused values are read
from postyp import Float64


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
