# error: line 5: unsupported construct: list literal
from postyp import Bool, Float64, Int64, Out

def weights_sum() -> Float64:
    w = [0.25, 0.5, 0.25]
    return w[0] + w[1] + w[2]
