# error: line 7: unknown argument 'blocks' to @gpu (it takes fallback=)
from postyp import Bool, Float64, Int64, Out

from postc import gpu


@gpu(fallback=True, blocks=4)
def add1(x: Float64[:], y: Out[Float64[:]]) -> None:
    for i in range(len(x)):
        y[i] = x[i] + 1.0
