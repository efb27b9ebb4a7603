# error: a `for` loop over the name of a CPython module or of what it exports is the typecheck's: reported once, in blocks of refused statements too and after earlier errors, and the loop's body is checked with nothing echoed
import os

import numpy as np
from numpy import ones
from postyp import Float64


def modules(a: Float64[:]) -> Float64:
    s = 0.0
    for v in np:
        s += v + undefined_five
    for v in os:
        s += 1.0
    with open("f") as w:
        for v in ones:
            s += 1.0
    return s + undefined_six
