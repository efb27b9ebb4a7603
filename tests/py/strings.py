"""Str and Bytes values: concatenation, length, comparisons."""
from postyp import Str, Bytes, Bool, Int64

GREETING = "Hello, "
SEP: Str = "/"
MAGIC: Bytes = b"\x89PNG"


def greet(name: Str) -> Str:
    """'Hello, ' + name + '!'."""
    return GREETING + name + "!"


def join_path(a: str, b: str) -> str:
    """a + '/' + b, without doubling a trailing separator."""
    if a == "":
        return b
    return a + SEP + b


def str_len(s: Str) -> Int64:
    """Length of a string in code points."""
    return len(s)


def same(a: Str, b: Str) -> Bool:
    """a == b."""
    return a == b


def differ(a: Str, b: Str) -> Bool:
    """a != b."""
    return a != b


def before(a: Str, b: Str) -> Bool:
    """a < b (code-point order)."""
    return a < b


def str_order(a: Str, b: Str) -> Int64:
    """1, 0 or -1 as a sorts after, with or before b, through >, <= and >=."""
    if a > b:
        return 1
    if a <= b and a >= b:
        return 0
    return -1


def smaller(a: Str, b: Str) -> Str:
    """The lesser of two strings, by a conditional expression."""
    return a if a < b else b


def repeat(s: Str, n: Int64) -> Str:
    """s concatenated n times in a loop."""
    r = ""
    for i in range(n):
        r = r + s
    return r


def total_len(a: Str, b: Str, c: Str) -> Int64:
    """len(a + b + c)."""
    return len(a + b + c)


def tag_bytes(payload: Bytes) -> Bytes:
    """MAGIC + payload."""
    return MAGIC + payload


def frame(payload: Bytes) -> Bytes:
    """b"<" + payload + b">" with a NUL terminator."""
    return b"<" + payload + b">\x00"


def bytes_len(b: bytes) -> Int64:
    """Length of a Bytes value."""
    return len(b)


def bytes_order(a: Bytes, b: Bytes) -> Int64:
    """-1, 0 or 1 by bytewise order."""
    if a < b:
        return -1
    elif a == b:
        return 0
    return 1


def has_magic(b: Bytes) -> Bool:
    """b starts with MAGIC, tested as b == MAGIC for a 4-byte b."""
    return len(b) == 4 and b == MAGIC
