# error: line 6: unsupported construct: f-string
from postyp import Int64, Str


def label(n: Int64) -> Str:
    return f"item {n}"
