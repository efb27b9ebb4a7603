# error: the arguments of refused calls and the values of refused statements are checked (lines 11 to 19); a dtype, a shape tuple or a type among them is not refused again as a value
import numpy as np
from postyp import Float64, Int64


def h(a: Int64) -> Int64:
    return a


def f(a: Float64[:], n: Int64) -> Float64:
    x1 = h(n, in_extra_argument)
    x2 = h(n, k=in_keyword)
    x3 = len(a, in_len)
    x4 = np.zeros((n, in_shape), dtype=np.float128)
    x5 = np.zeros(n, Float64, in_after_type)
    assert n > in_assert, n
    x6: Complex = in_annotated
    a.x += in_augmented
    raise Fault(in_raise)
