"""Private helpers, as real modules name them: `_name` and `__name`
functions, a `_name` ufunc and a `_name` alias. C reserves such names, so
they are exported as `postc_export_NAME`; every backend compiles them."""
from postc import ufunc
from postyp import Float64, Int64


def _repeat(n: Int64) -> Int64:
    """Doubles n."""
    return n * 2


def __two_factors(n: Int64) -> Int64:
    """How many times 2 divides n (n > 0)."""
    c = 0
    while n > 0 and n % 2 == 0:
        n //= 2
        c += 1
    return c


def public(n: Int64) -> Int64:
    """A public function calling the private ones."""
    return _repeat(n) + __two_factors(n)


@ufunc
def _half(x: Float64) -> Float64:
    """Elementwise x / 2."""
    return x / 2.0


_twice = _repeat
