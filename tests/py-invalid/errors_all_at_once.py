# error: every independent error at once: in the bodies of refused `for` loops (lines 11, 19, 23), after a refused unpacking (line 14; its targets and the names of refused loops are then quiet, neither undefined nor mistyped), and elsewhere (lines 20, 25, 29)
from postyp import Float64, Int32, Int64


def f(a: Float64[:], n: Int64) -> Float64:
    s: Float64 = 0.0
    # `x, y` from a loop that gives one value: refused, and its body is
    # still checked (`x` is then quiet, not an error of its own).
    for x, y in a:
        s += x
        z: Int32 = 1.5
    p, q = 1
    q = p + 1
    r: Int32 = n * 2.5
    for k in "abc":
        if k:
            break
        else:
            t: Int32 = 2.5
    m: Int32 = n
    while s:
        for j in range(3.0):
            w: Int32 = n + 0.5
            continue
    return s + undefined_name


def g(i: Int64) -> Int64:
    return i + 1.0j
