# error: line 7: call of 'postc.math.nosuch': postc.math has no intrinsic 'nosuch'
import postc.math
from postyp import Float64


def f(x: Float64) -> Float64:
    return postc.math.nosuch(x)
