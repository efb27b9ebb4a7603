# error: the bodies of refused `try`, `with` and `match` are checked (lines 8, 12, 18); what they and refused unpackings bind is not then undefined
from postyp import Int32, Int64


def f(n: Int64) -> Int64:
    try:
        x = n
        y: Int32 = 1.5
    except ValueError as e:
        x = 2
    with open("f") as fh:
        z: Int32 = 2.5
    *a, b = 1, 2
    (c, d), e2 = (1, 2), 3
    u, v = 1, 2, 3.0 + undefined_w
    match n:
        case 1:
            w: Int32 = 3.5
        case q:
            pass
    return x + fh + a + b + c + q
