# error: line 8: returned value is Int32, the function returns Bool (no implicit cast on return)
# pynndescent's bit test: Numba's `b1` signature casts on return, CPython returns the integer.
from postyp import Bool, Int32, UInt8

def has_been_visited(table: UInt8[::1], candidate: Int32) -> Bool:
    loc = candidate >> 3
    mask = 1 << (candidate & 7)
    return table[loc] & mask
