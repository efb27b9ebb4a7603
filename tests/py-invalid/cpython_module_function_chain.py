# error: line 8: a function of a CPython module reached through its package is not an array method
import scipy
from postyp import Float64


def f(x: Float64[:]) -> Float64:
    # Not the array method `.mean()` of a value `scipy.stats`.
    return scipy.stats.mean(x)
