# error: what compiled code cannot raise, loop over, unpack or annotate is refused before the lowering, every statement reported once, and what the refused statements hold still checked
from postyp import Float64, Int64


async def loops(a: Float64[:], n: Int64) -> Int64:
    async for x in a:
        n += undefined_in_loop
    if n > 0:
        raise ValueError("too big") from None
    if n > 1:
        raise ValueError(message=n)
    if n > 2:
        raise ValueError(n, "two")
    assert n < 3, f"n is {n}"
    return n


def unpackings(n: Int64) -> Int64:
    a, b = c = n, n
    d, (e, f) = n, (n, n)
    g, *h = n, n, n
    i, j = n, *(n, n)
    k, m = n, n, undefined_in_values
    return n


def annotations(a: Float64[:], n: Int64) -> Int64:
    a[0]: Float64 = 1.0
    x: Float64[:] = a
    n: Int64 = 2
    m: Int64 = 1
    m: Float64 = 2.0
    k: Int32 = 3
    return m + n
