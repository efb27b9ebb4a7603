# error: line 6: cannot add Str and Int64
from postyp import Int64, Str


def label(n: Int64) -> Str:
    return "item " + n
