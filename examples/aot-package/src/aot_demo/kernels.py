"""Two kernels of the ahead-of-time example package."""
from postc import ufunc
from postyp import Float64

__all__ = ["weighted_sum", "hypot"]


def weighted_sum(x: Float64[:], w: Float64[:]) -> Float64:
    """The sum of x[i] * w[i]; the arrays must have the same length."""
    if len(x) != len(w):
        raise ValueError("x and w differ in length")
    s = 0.0
    for i in range(len(x)):
        s += x[i] * w[i]
    return s


@ufunc
def hypot(a: Float64, b: Float64) -> Float64:
    """sqrt(a * a + b * b), elementwise."""
    return (a * a + b * b) ** 0.5
