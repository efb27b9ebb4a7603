# A module-level array passed where the callee writes (`Out[...]`).
import numpy as np
from postyp import Float64, Out

TABLE = np.array([1.0, 2.0, 3.0])


def fill(out: Out[Float64[:]]) -> None:
    for i in range(len(out)):
        out[i] = 0.0


def clear_table() -> None:
    fill(TABLE)
