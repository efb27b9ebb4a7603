"""Python's floor division and modulo on integers and floats, true
division of integers, and the by-zero panics."""
from postyp import Bool, Int8, Int32, Int64, UInt32, Float64


def floordiv(a: Int64, b: Int64) -> Int64:
    """a // b, floor toward minus infinity."""
    return a // b


def modulo(a: Int64, b: Int64) -> Int64:
    """a % b, with the sign of the divisor."""
    return a % b


def divmod_check(a: Int64, b: Int64) -> Bool:
    """(a // b) * b + a % b == a."""
    q = a // b
    r = a % b
    return q * b + r == a


def floordiv8(a: Int8, b: Int8) -> Int8:
    """Int8 floor division (no MIN // -1 here)."""
    return a // b


def mod8(a: Int8, b: Int8) -> Int8:
    """Int8 modulo."""
    return a % b


def umod(a: UInt32, b: UInt32) -> UInt32:
    """UInt32 modulo."""
    return a % b


def halve_inplace(a: Int64, b: Int64) -> Int64:
    """Augmented a //= b (a panic here is located at the statement)."""
    a //= b
    return a


def mod_inplace(a: Int64, b: Int64) -> Int64:
    """Augmented a %= b."""
    a %= b
    return a


def shifted_div(a: Int64, b: Int64, c: Int64) -> Int64:
    """(a + b) // c: the division starts at the parenthesis."""
    return (a + b) // c


def ratio(a: Int32, b: Int32) -> Float64:
    """True division of two Int32 values gives Float64."""
    return a / b


def mean_int(a: Int64, b: Int64) -> Float64:
    """int / int is Float64."""
    return (a + b) / 2


def fdiv_float(x: Float64, y: Float64) -> Float64:
    """Float floor division (y is never zero here)."""
    return x // y


def fmod_float(x: Float64, y: Float64) -> Float64:
    """Float modulo with the divisor's sign (y is never zero here)."""
    return x % y
