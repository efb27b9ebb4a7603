import numpy as np
from postyp import Float64


def noise(n: Float64) -> Float64:
    return np.random.default_rng(1).random(n)
