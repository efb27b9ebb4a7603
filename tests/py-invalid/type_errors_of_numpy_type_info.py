# error: the reads of `np.iinfo(T)` and `np.finfo(T)` compiled code refuses (a keyword, a count of arguments, an unknown dtype, a dtype that is not an integer or not inexact, an attribute it does not read) are the typecheck's: all reported, with no echo of what reads them
import numpy as np
from postyp import Float64, Int64


def limits(x: Float64) -> Float64:
    a = np.iinfo(dtype=np.int32).max
    b = np.finfo(np.float32, np.float64).eps
    c = np.iinfo(np.float64).max
    d = np.finfo(np.int32).eps + 1.0
    e = np.iinfo(np.int8).eps
    f = np.finfo(np.float32).biggest
    g = np.iinfo("int33").min
    h = np.finfo(np.float_).tiny
    k = np.iinfo(np.int16).max + np.finfo(np.float32).eps
    return x
