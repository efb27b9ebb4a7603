# error: locals read before anything assigns them are the typecheck's: a local only updated (each update and read), and locals whose only bindings read one another (their first reads), with no echo of the errors of other bindings
import numpy as np
from postyp import Float64, Int64


def only_updated(a: Float64[:]) -> Float64:
    for i in range(a.shape[0]):
        total += a[i]
    count *= 2
    return total + count


def swapped_only(n: Int64) -> Int64:
    if n > 0:
        x, y = y, x
    return x + y


def updated_and_refused(n: Int64) -> Int64:
    for k in "abc":
        k += 1
    with open("f") as f:
        g += 1
    return n + undefined_one
