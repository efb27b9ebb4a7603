"""3-vectors as static-shape Float64[3] arrays: dot, cross, norm."""
import postc.math
from postyp import Float64, Int64, Out


def dot3(a: Float64[3], b: Float64[3]) -> Float64:
    """a . b."""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross3(a: Float64[3], b: Float64[3], out: Out[Float64[3]]) -> None:
    """out = a x b."""
    out[0] = a[1] * b[2] - a[2] * b[1]
    out[1] = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]


def norm3(a: Float64[3]) -> Float64:
    """|a| (sqrt is correctly rounded)."""
    return postc.math.sqrt(dot3(a, a))


def scale3(s: Float64, a: Float64[3], out: Out[Float64[3]]) -> None:
    """out = s * a."""
    for i in range(3):
        out[i] = s * a[i]


def get3(a: Float64[3], i: Int64) -> Float64:
    """a[i] with a bounds check (a panic here is reported in this file)."""
    return a[i]
