# error: line 3: postc.math has no intrinsic 'nosuch'
from postyp import Float64
from postc.math import nosuch


def f(x: Float64) -> Float64:
    return nosuch(x)
