# error: calls of functions without a result type (one that returns nothing, read as a value; one whose result needs itself) and the returns of a function whose returns give no one type are the typecheck's: every body is typechecked, none lowered, and the calls of a function whose errors are its own stay quiet
import numpy as np
from postyp import Float64, Int64


def log_value(x: Int64) -> None:
    print(x)


def nothing_back(x: Int64):
    log_value(x)


def nothing_returned(x: Int64):
    return log_value(x)


def reads_nothing(x: Int64, a: Float64[:]) -> Int64:
    log_value(x)
    if log_value(x) is None:
        x += 1
    y = log_value(x)
    z = nothing_back(x) + 1
    print(nothing_returned(x))
    a[0] = log_value(x)
    return log_value(x)


def mixed(x: Int64):
    if x > 0:
        return 1.0
    return np.zeros(3)


def calls_mixed(x: Int64) -> Int64:
    y = mixed(x)
    w = y
    return x + undefined_one


def calls_mixed_quietly(x: Int64) -> Int64:
    y = mixed(x)
    w = y
    return x


def pairs(n: Int64):
    if n == 0:
        return 0, 1
    a, b = pairs(n - 1)
    return b, a + b


def ping(n: Int64):
    if n <= 0:
        return 0
    return pong(n - 1)


def pong(n: Int64):
    return ping(n) + 1


def uses_pairs(n: Int64) -> Int64:
    a, b = pairs(n)
    return a + ping(n)


def sometimes_pair(n: Int64):
    if n > 0:
        return n, n


def too_big() -> Int64:
    big = 18446744073709551615
    return 0
