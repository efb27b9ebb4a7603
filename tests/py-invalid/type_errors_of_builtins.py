# error: the type errors of calls of len, abs, min, max and the postc.math functions are the typecheck's: all reported, inside refused statements too, with no echo of the calls they refuse
import postc.math
from postc.math import hypot as hyp
from postyp import Complex128, Float64, Int64


def sizes(a: Float64[:], s: Float64[()], x: Float64, t: tuple[Float64, Int64]) -> Int64:
    n = len(a, a)
    m = len(s) + 1
    k = len(x)
    w = len(t) + len()
    b = abs(a)
    c = abs("ab") * 2
    d = abs(x, x)
    with open("f") as f:
        e = len(3)
    return n


def extremes(x: Float64, n: Int64, z: Complex128, t: tuple[Float64, Int64]) -> Float64:
    a = min(())
    b = max(x)
    c = min()
    d = max(x, "s") + 1.0
    e = min(n, z)
    g = max(t) + min(x, n)
    h = min((x, "a"))
    return x


def intrinsics(x: Float64, z: Complex128, a: Float64[:]) -> Float64:
    e = postc.math.sqrt(z)
    g = postc.math.sqrt(a) * 2.0
    h = hyp(x, "s")
    k = postc.math.sqrt()
    return x + postc.math.sqrt(x)
