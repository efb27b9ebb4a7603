# error: the parts of refused expressions are checked, in source order (lines 7 to 11): undefined names and a type error inside them; a lambda's body is not, and `:=` binds rather than uses its name; a list comprehension assigned to a name compiles, its undefined name reported (line 13)
from postyp import Float64, Int32, Int64


def f(a: Float64[:], n: Int64) -> Float64:
    w: Int32 = 0
    c = [1, n + "s", (2, *in_starred)]
    e = {n: in_dict_value, in_dict_key: 1}
    h = f"{in_fstring:>{width}}"
    p = a[in_lower:3]
    q = a @ (w := n * in_walrus)
    g = lambda t: t + in_lambda
    k = [x * in_comprehension for x in a]
    return 0.0
