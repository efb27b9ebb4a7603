# error: line 7: call of 'shear' from 'lib.nosuch': no POST module lib/nosuch.py exists, so it is a CPython boundary import and cannot be called from compiled code
from postyp import Float64
from lib.nosuch import shear


def f(x: Float64) -> Float64:
    return shear(x)
