# error: line 10: a recursive call needs the tuple result declared
from postyp import Int64


def fib_pair(n: Int64):
    """(fib(n), fib(n + 1)): its result is needed by its own call before
    the first `return` could give it."""
    if n == 0:
        return 0, 1
    a, b = fib_pair(n - 1)
    return b, a + b
