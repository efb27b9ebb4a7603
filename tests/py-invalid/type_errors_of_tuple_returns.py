# error: returns of tuples that an annotated result does not take, of what is not a tuple for a tuple result, and of values in a function annotated `-> None`, are the typecheck's errors, each once, with the errors after them still reported
from postyp import Float64, Int64


def not_a_tuple(x: Float64, n: Int64) -> Float64:
    if n > 0:
        return x, n
    if n > 1:
        return undefined_one, x
    return x


def counts(x: Float64, n: Int64) -> tuple[Float64, Int64]:
    if n > 0:
        return x, n, n
    if n > 1:
        return (x,)
    if n > 2:
        return n, x + "text"
    return x, n


def elements(x: Float64, n: Int64, a: Float64[:]) -> tuple[Int64, Float64[:]]:
    if n > 0:
        return x, a
    if n > 1:
        return n, x
    if n > 2:
        return n, a[0]
    return n, a


def nothing(x: Float64) -> None:
    if x > 0.0:
        return x, x
    print(undefined_two)


def nested(x: Float64, n: Int64) -> tuple[Float64, Int64]:
    if n > 0:
        return x, (n, n)
    if n > 1:
        return x, ()
    return x, n


def nothing_else(x: Float64, a: Float64[:]) -> None:
    if x > 0.0:
        return x
    if x > 1.0:
        return a
    if x > 2.0:
        return nothing(x)
    return undefined_three


def not_tuples(x: Float64, n: Int64, a: Float64[:]) -> tuple[Float64, Int64]:
    if n > 0:
        return x
    if n > 1:
        return a
    if n > 2:
        return n
    return x, n
