# error: line 10: module 'lib.shapes' has no function 'volume'
import lib.shapes as sh
import module_missing_member as me
from postyp import Float64

RATE = 2.0


def f(r: Float64) -> Float64:
    return sh.area(r) + sh.volume(r) + me.RATE + me.rate + me.g(r) + sh


def g(r: Float64) -> Float64:
    return r
