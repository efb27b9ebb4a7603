# error: line 7: unsupported construct: with statement
from postyp import Float64
import numpy as np


def quiet_div(a: Float64, b: Float64) -> Float64:
    with np.errstate(divide="ignore"):
        return a / b
