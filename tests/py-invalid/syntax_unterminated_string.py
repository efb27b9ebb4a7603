# error: line 6: syntax error: unterminated string literal
from postyp import Str


def greet() -> Str:
    return "hello
