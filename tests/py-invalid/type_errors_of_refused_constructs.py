# error: expressions POST Python refuses whatever their types (dict, set and list displays where no list is made, comprehensions but one assigned to a name, generator expressions, lambdas, f-strings outside messages, assignment expressions) are the typecheck's: each reported once wherever it is (an argument, a condition, an index, an arm, inside another refused one, in the block of a refused statement), with what it holds checked and nothing echoed
import numpy as np
from postyp import Float64, Int64


def constructs(a: Float64[:], x: Float64, n: Int64) -> Float64:
    b = np.sum(a[{0: 1}[0]])
    if (m := n) > 0:
        x = x + 1.0
    c = max(x, sum(v for v in a))
    d = x if {x} else 0.0
    e = np.zeros(len([v for v in a if v > 0.0]))
    f = (lambda t: t)(x)
    g = {"k": f"{x}"}
    with open("f") as w:
        h = {v: v for v in a}
    return b + c + d + e[0] + f + g["k"] + x
