# error: line 6: astype without a dtype; line 7: a shape of floats; line 8: flatten with an argument
from postyp import Float64, Int64

def bad(a: Float64[:]) -> Int64:
    n = 0
    b = a.astype()
    c = a.reshape(2.5, 2)
    d = a.flatten(1)
    return n
