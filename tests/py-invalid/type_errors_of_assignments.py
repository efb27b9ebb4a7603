# error: the type errors of assignments are the typecheck's: values a local's type does not hold, every one, inside refused statements and after other errors too, with no echo
import numpy as np
from postyp import Bool, Float64, Int32, Int64


def joins(n: Int64, x: Float64) -> Int64:
    s = "text"
    s = n + 1
    k: Int32 = 0
    k = x * 2.0
    k += 1.5
    a = np.zeros(n)
    a = np.zeros(n, dtype=np.int32)
    a = 1.5
    t = (n, x)
    t = 3
    t = (n, x, n)
    t = ("a", x)
    with open("f") as g:
        k = 2.5
    try:
        s = x
    except ValueError:
        pass
    p = q = "s"
    p = 1.0
    return k


def parameters(n: Int64, f: Float64[:], o: Int64[:, :], c: Bool) -> Float64:
    m = len(n, n)
    if c:
        f = np.zeros((3, 3))
        o = np.zeros((2, 2))
        n = "abc"
        n = 2.5
    while c:
        f = np.zeros(3, dtype=np.int32)
    return 1.0
