# error: line 3: postc has no name 'vectorize'
from postyp import Float64
from postc import vectorize


@vectorize
def f(x: Float64) -> Float64:
    return x
