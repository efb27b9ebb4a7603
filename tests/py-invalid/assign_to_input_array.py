# error: line 6: cannot store into 'x': it is an input array (mark it Out[...])
from postyp import Bool, Float64, Int64, Out

def clear(x: Float64[:]) -> None:
    for i in range(len(x)):
        x[i] = 0.0
