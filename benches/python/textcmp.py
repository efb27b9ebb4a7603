"""Comparisons of Str values in a hot loop: equality and order of texts
that differ in length, in their last byte, or not at all, chosen per
iteration (and built at run time, so that no comparison is folded).
`legalize` writes them out as calls of `postc.str.eq` and `postc.str.cmp`.
`main` returns a checksum. `scripts/bench-intdiv --source
benches/python/textcmp.py` runs it."""
from postyp import Int64, Str

WORDS: Str = "alpha beta gamma delta"
LAST: Str = "alpha beta gamma deltb"
SHORT: Str = "alpha"


def main() -> Int64:
    empty: Str = ""
    words = WORDS + empty
    same = WORDS + empty
    last = LAST + empty
    short = SHORT + empty
    total = 0
    for i in range(3000000):
        a = words if i % 2 == 0 else last
        b = same if i % 3 == 0 else short
        if a == b:
            total += 1
        if a != same:
            total += 2
        if a < b:
            total += i % 3
        if b >= a:
            total += 5
    return total % 1000000007
