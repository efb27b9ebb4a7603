"""Triangles in 3-D through the vector module geom.vec (a POST import)."""
from postyp import Bool, Float64, Int64, Out
from postc import empty
from postc.math import acos
from geom.vec import dot3, cross3, norm3, get3


def triangle_area(p: Float64[3], q: Float64[3], r: Float64[3]) -> Float64:
    """|(q - p) x (r - p)| / 2 with scratch vectors."""
    u = empty(3, Float64)
    v = empty(3, Float64)
    for i in range(3):
        u[i] = q[i] - p[i]
        v[i] = r[i] - p[i]
    w = empty(3, Float64)
    cross3(u, v, w)
    return norm3(w) / 2.0


def normal(p: Float64[3], q: Float64[3], r: Float64[3], out: Out[Float64[3]]) -> None:
    """out = (q - p) x (r - p), unnormalized."""
    u = empty(3, Float64)
    v = empty(3, Float64)
    for i in range(3):
        u[i] = q[i] - p[i]
        v[i] = r[i] - p[i]
    cross3(u, v, out)


def angle(a: Float64[3], b: Float64[3]) -> Float64:
    """Angle between two vectors in radians (acos: tolerance)."""
    return acos(dot3(a, b) / (norm3(a) * norm3(b)))


def is_orthogonal(a: Float64[3], b: Float64[3]) -> Bool:
    """a . b == 0."""
    return dot3(a, b) == 0.0


def component(a: Float64[3], i: Int64) -> Float64:
    """Calls get3 of the other module; its bounds panic points there."""
    return get3(a, i)
