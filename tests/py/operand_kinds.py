"""Where CPython and NumPy disagree, the operands' kind decides: Python
numbers (`float(x)`, `int(x)`, literals) raise ZeroDivisionError on a
division by zero and ValueError on a negative shift count, as CPython
does; NumPy integers shift by a negative count as NumPy does (everything
shifted out). A Python int keeps its value until it meets a NumPy
integer: compared with one by value, and in arithmetic it takes the
NumPy dtype only if it fits (NumPy raises OverflowError otherwise)."""
from postyp import Bool, Complex128, Float64, Int8, Int32, Int64, UInt64


def py_div(a: Int64, b: Int64) -> Float64:
    """Python floats: `x / 0.0` raises."""
    return float(a) / float(b)


def py_floordiv(a: Int64, b: Int64) -> Float64:
    """Python floats: `x // 0.0` raises."""
    return float(a) // float(b)


def py_mod(a: Int64, b: Int64) -> Float64:
    """Python floats: `x % 0.0` raises."""
    return float(a) % float(b)


def py_int_truediv(a: Int64, b: Int64) -> Float64:
    """Python ints: `x / 0` raises."""
    return int(a) / int(b)


def py_reciprocal(a: Int64) -> Float64:
    """A literal numerator and a Python float denominator."""
    return 1.0 / float(a)


def py_pow(a: Int64, b: Int64) -> Float64:
    """Python floats: `0.0 ** negative` raises."""
    return float(a) ** float(b)


def py_complex_div(a: Int64, b: Int64) -> Complex128:
    """Python complex numbers: division by zero raises."""
    return complex(a) / complex(b)


def py_halving(a: Int64) -> Float64:
    """A nonzero literal divisor needs no check."""
    return float(a) / 2.0


def py_shl(a: Int64, k: Int64) -> Int64:
    """Python ints: a negative count raises ValueError."""
    return int(a) << int(k)


def np_shl32(a: Int32, k: Int32) -> Int32:
    """NumPy Int32: a negative count shifts everything out."""
    return a << k


def np_shr64(a: Int64, k: Int64) -> Int64:
    """NumPy Int64: a negative count fills with the sign."""
    return a >> k


def np_shl8(a: Int8, k: Int8) -> Int8:
    """NumPy Int8, counts past the width and negative."""
    return a << k


def np_shl_literal(a: Int32) -> Int32:
    """A NumPy value shifted by a negative Python literal is NumPy's shift."""
    return a << -1


def np_div(x: Float64, y: Float64) -> Float64:
    """NumPy floats: `x / 0.0` is inf or nan, as IEEE 754 gives it."""
    return x / y


def big_local_compare(v: Int32) -> Bool:
    """A local holding a Python int too large for Int32 is compared by value."""
    big = 9223372036854775807
    return v > big // 2


def big_local_floordiv(v: Int32) -> Int32:
    """A Python int too large for Int32 meeting one: OverflowError."""
    big = 9223372036854775807
    return big // v


def py_int_floordiv32(v: Int32, k: Int64) -> Int32:
    """A Python int takes Int32's dtype when it fits, else OverflowError."""
    w = int(k)
    return w // v


def py_int_above32(v: Int32, k: Int64) -> Bool:
    """A Python int out of Int32's range, compared by value on either side."""
    w = int(k)
    return v > w and not w >= v


def py_int_below_u64(v: UInt64, k: Int64) -> Bool:
    """A negative Python int is below every UInt64; others compare as UInt64."""
    return int(k) < v


def u64_plus_py_int(v: UInt64, k: Int64) -> UInt64:
    """A negative Python int does not fit UInt64: OverflowError."""
    return v + int(k)


def counter_plus_i8(x: Int8, n: Int64) -> Int8:
    """A loop counter is a Python int too: it must fit the Int8 it meets."""
    s = x
    for i in range(n):
        s = x + i
    return s
