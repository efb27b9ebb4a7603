# error: line 6: cannot add Bytes and Str
from postyp import Bytes, Str


def tag(b: Bytes, s: Str) -> Bytes:
    return b + s
