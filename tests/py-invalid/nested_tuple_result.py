# error: line 9: a tuple inside the result of function `annotated` needs the result unannotated: its type is what the `return`s give
# error: line 13: a result may hold tuples of scalars and arrays, not an empty tuple or a tuple of tuples
# error: line 19: the tuples inside this result are not where the first `return` of function `changing` has them: every `return` gives the same types
# error: line 23: a result may hold tuples of scalars and arrays, not an empty tuple or a tuple of tuples
from postyp import Bool, Float64, Int64


def annotated(a: Float64[:]) -> tuple[Float64, Int64]:
    return a[0], (len(a), 2)


def deeper(a: Float64[:]):
    return a[0], ((1, 2), 3)


def changing(a: Float64[:], k: Int64):
    if k > 0:
        return a[0], (k, k)
    return a[0], k, k


def empty_inner(a: Float64[:]):
    return a[0], ()
