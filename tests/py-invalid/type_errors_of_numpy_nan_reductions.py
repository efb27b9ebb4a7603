# error: the calls of the NaN-skipping reductions, `np.var`, `np.std` and their methods compiled code refuses (counts of arguments, arrays not of real numbers, `ddof` not a number) are the typecheck's: all reported, those in the blocks of refused statements too, with no echo of the calls they refuse
import numpy as np
from postyp import Complex128, Float64, Int64


def reductions(a: Float64[:], z: Complex128[:], x: Float64) -> Float64:
    b = np.nansum(a, a)
    c = np.nanmean(z)
    d = np.var(x)
    e = a.std(1)
    f = np.nanvar(a, ddof="1")
    g = a.var(ddof=z[0])
    try:
        h = np.nanstd(z)
    finally:
        h = 0.0
    return b + c + d + e + f + g + h
