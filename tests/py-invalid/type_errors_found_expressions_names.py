# error: names and members that are no values, read as values, are the typecheck's errors: modules (`np`, `math`, `postc.prange`), a GPU register outside a `@kernel` or of an axis it does not have, and `...` outside an index
import math

import numpy as np
import postc
from postc import kernel, thread_idx
from postyp import Float64, Int64, Out


def modules(i: Int64) -> Float64:
    m = np
    n = math
    p = postc.prange
    return 1.0


def registers(i: Int64) -> Int64:
    return thread_idx.x


@kernel
def axes(a: Out[Float64[:]]) -> None:
    i = thread_idx.w
    a[i] = 1.0


def ellipses(a: Float64[:], i: Int64) -> Float64:
    x = ...
    t = (..., 1)
    print(...)
    return a[...][0] + postc.math.pi
