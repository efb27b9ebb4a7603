# error: the type errors of operators, comparisons, conditions and conditional expressions are the typecheck's: all reported, inside refused statements too, with no echo of the values they refuse
from postyp import Bool, Complex128, Float64, Int64


def operators(x: Float64, n: Int64, z: Complex128, flag: Bool) -> Float64:
    a = ~x
    b = +flag
    c = -"ab"
    d = z < z
    e = n < "a"
    g = x if flag else (x, x)
    h = (x, n) if flag else (x, n, n)
    k = x if flag else "s"
    m = n is n
    p = 1 < n in (1, 2)
    q = 123456789012345678901234567890
    with open("f") as f:
        r = ~z
    return x


def conditions(a: Float64[:], n: Int64, flag: Bool) -> Int64:
    if "s":
        n += 1
    while a:
        n += 1
    assert (n, n), "a tuple"
    v = flag and n or a
    w = not a
    return n if a else 0
