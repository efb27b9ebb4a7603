"""Casts by calling a dtype: saturating float -> int, wrapping int -> int,
number -> Bool, Bool -> int, complex -> real, rounding between floats."""
from postyp import (
    Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64,
    Float16, Float32, Float64, Complex64, Complex128,
)


def f64_to_i8(x: Float64) -> Int8:
    """Saturating: NaN -> 0, out of range -> -128 / 127."""
    return Int8(x)


def f64_to_u16(x: Float64) -> UInt16:
    """Saturating to [0, 65535], truncating toward zero."""
    return UInt16(x)


def f64_to_i32(x: Float64) -> Int32:
    """Saturating Float64 -> Int32."""
    return Int32(x)


def f64_to_i64(x: Float64) -> Int64:
    """Saturating Float64 -> Int64."""
    return Int64(x)


def f64_to_u64(x: Float64) -> UInt64:
    """Saturating Float64 -> UInt64."""
    return UInt64(x)


def f32_to_u8(x: Float32) -> UInt8:
    """Saturating Float32 -> UInt8."""
    return UInt8(x)


def f16_to_i16(x: Float16) -> Int16:
    """Float16 -> Int16 (inf saturates)."""
    return Int16(x)


def i64_to_i8(n: Int64) -> Int8:
    """Wrapping truncation to 8 bits."""
    return Int8(n)


def i64_to_u32(n: Int64) -> UInt32:
    """Wrapping: -1 -> 4294967295."""
    return UInt32(n)


def u64_to_i64(n: UInt64) -> Int64:
    """Reinterpretation of the top bit."""
    return Int64(n)


def i8_to_u16(n: Int8) -> UInt16:
    """Sign extension, then wrap: -1 -> 65535."""
    return UInt16(n)


def u8_to_i32(n: UInt8) -> Int32:
    """Zero extension."""
    return Int32(n)


def to_bool(x: Float64) -> Bool:
    """x != 0 (NaN is true)."""
    return Bool(x)


def int_to_bool(n: Int32) -> Bool:
    """n != 0."""
    return Bool(n)


def bool_to_int(b: Bool) -> Int64:
    """True -> 1, False -> 0."""
    return Int64(b)


def count_true(a: Bool, b: Bool, c: Bool) -> Int32:
    """Sum of three Bools as Int32."""
    return Int32(a) + Int32(b) + Int32(c)


def to_f16(x: Float64) -> Float16:
    """One rounding Float64 -> Float16 (overflow -> inf)."""
    return Float16(x)


def to_f32(x: Float64) -> Float32:
    """One rounding Float64 -> Float32."""
    return Float32(x)


def f16_to_f64(x: Float16) -> Float64:
    """Exact widening."""
    return Float64(x)


def i64_to_f64(n: Int64) -> Float64:
    """Rounding Int64 -> Float64 (exact below 2**53)."""
    return Float64(n)


def u64_to_f32(n: UInt64) -> Float32:
    """Rounding UInt64 -> Float32."""
    return Float32(n)


def real_part(z: Complex128) -> Float64:
    """Complex -> real drops the imaginary part."""
    return Float64(z)


def narrow_complex(z: Complex128) -> Complex64:
    """Complex128 -> Complex64 rounds each part."""
    return Complex64(z)


def real_to_complex(x: Float32) -> Complex64:
    """Float32 -> Complex64 with a zero imaginary part."""
    return Complex64(x)


def py_int(x: Float64) -> Int64:
    """int(x) truncates toward zero (finite, in-range x only)."""
    return int(x)


def py_float(n: Int64) -> Float64:
    """float(n)."""
    return float(n)


def round_half_away(x: Float64) -> Int64:
    """Round half away from zero with int() and a conditional expression."""
    return int(x + 0.5) if x >= 0.0 else -int(0.5 - x)
