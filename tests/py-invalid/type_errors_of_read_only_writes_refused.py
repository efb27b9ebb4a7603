# error: the writes into input arrays inside the blocks of refused statements, and in assignments refused for their form or their values, are the typecheck's, each beside the statement's own error
import numpy as np
from postyp import Float64, Int64


def refused_blocks(n: Int64, x: Float64[:], m: Float64[:, :]) -> Float64:
    with open("f") as f:
        x[0] = 1.0
        for i in range(n):
            m[i, :] = 0.0
    try:
        x[1] = 2.0
    except ValueError:
        x[2] = 3.0
    x[0], x[1] = 1.0, 2.0, 3.0
    x[0], x.size = 1.0, 3
    m[0, 0], k = 1.0
    x[0] = m
    m[0] = np.zeros((2, 2))
    x[1.5] = 1.0
    return 1.0
