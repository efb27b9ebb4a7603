"""Python's float floor division and modulo and complex division and power
on their edge cases: signed zeros, infinities, NaN, huge and tiny operands.
The operands are made Python numbers (`float(x)`, `complex(z)`), so CPython
runs its own algorithms (float_floor_div, float_rem, _Py_c_quot,
complex_pow) and the compiled code must give the same bits."""
from postyp import Complex64, Complex128, Float16, Float32, Float64, Out

__all__ = ["floordiv", "mod", "divmod_into", "floordiv32", "mod32", "mod16",
           "cdiv", "cpow", "cdiv64", "cpow_int"]


def floordiv(x: Float64, y: Float64) -> Float64:
    """x // y on Python floats."""
    return float(x) // float(y)


def mod(x: Float64, y: Float64) -> Float64:
    """x % y on Python floats: the sign of y."""
    return float(x) % float(y)


def divmod_into(x: Float64, y: Float64, out: Out[Float64[:]]) -> None:
    """Both halves of divmod(x, y), and q * y + r."""
    a = float(x)
    b = float(y)
    q = a // b
    r = a % b
    out[0] = q
    out[1] = r
    out[2] = q * b + r


def floordiv32(x: Float32, y: Float32) -> Float32:
    """Float32 // (computed in double, rounded once)."""
    return x // y


def mod32(x: Float32, y: Float32) -> Float32:
    """Float32 %."""
    return x % y


def mod16(x: Float16, y: Float16) -> Float16:
    """Float16 %."""
    return x % y


def cdiv(a: Complex128, b: Complex128) -> Complex128:
    """a / b on Python complex numbers."""
    return complex(a) / complex(b)


def cpow(a: Complex128, b: Complex128) -> Complex128:
    """a ** b on Python complex numbers."""
    return complex(a) ** complex(b)


def cdiv64(a: Complex64, b: Complex64) -> Complex64:
    """A Complex64 quotient (each part formed in double, rounded once)."""
    return a / b


def cpow_int(a: Complex128, n: Float64) -> Complex128:
    """a ** n for a real exponent: repeated squaring when n is integral
    and at most 100 in magnitude, the polar form otherwise."""
    return complex(a) ** complex(float(n), 0.0)
