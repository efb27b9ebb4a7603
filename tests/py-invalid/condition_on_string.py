# error: line 6: condition must be Bool or a number, got Str
from postyp import Int64, Str


def nonempty(s: Str) -> Int64:
    if s:
        return 1
    return 0
