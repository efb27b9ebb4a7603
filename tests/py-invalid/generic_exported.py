# error: line 4: `__all__` names `helper`, a generic function (parameters without annotations), which cannot be exported
from postyp import Float64

__all__ = ["f", "helper"]


def helper(a):
    return a * 2.0


def f(x: Float64) -> Float64:
    return helper(x)
