"""NumPy's ufuncs on scalars and its float constants, compiled as
intrinsics: each result is a NumPy scalar of the dtype NumPy gives (the
float functions take an integer to the smallest float that holds it), so
every function here returns exactly the dtype CPython's result has. The
attributes of `np.iinfo(T)` and `np.finfo(T)` are constants: Python ints,
and NumPy scalars of T for finfo's values."""
import numpy as np
from numpy import exp, hypot, pi
from postyp import Bool, Complex128, Float16, Float32, Float64, Int8, Int16, Int32, Int64, UInt8, UInt32, UInt64


def gaussian(x: Float64, mu: Float64, sigma: Float64) -> Float64:
    """The normal density, as numba-examples writes it."""
    z = (x - mu) / sigma
    return np.exp(-0.5 * z * z) / (sigma * np.sqrt(2 * np.pi))


def f64_fn(k: Int64, x: Float64) -> Float64:
    """The float functions of one argument on Float64."""
    if k == 0:
        return np.sqrt(x)
    elif k == 1:
        return np.cbrt(x)
    elif k == 2:
        return exp(x)
    elif k == 3:
        return np.exp2(x)
    elif k == 4:
        return np.expm1(x)
    elif k == 5:
        return np.log(x)
    elif k == 6:
        return np.log2(x)
    elif k == 7:
        return np.log10(x)
    elif k == 8:
        return np.log1p(x)
    elif k == 9:
        return np.sin(x)
    elif k == 10:
        return np.cos(x)
    elif k == 11:
        return np.tan(x)
    elif k == 12:
        return np.arcsin(x)
    elif k == 13:
        return np.arccos(x)
    elif k == 14:
        return np.arctan(x)
    elif k == 15:
        return np.sinh(x)
    elif k == 16:
        return np.cosh(x)
    elif k == 17:
        return np.tanh(x)
    elif k == 18:
        return np.arcsinh(x)
    elif k == 19:
        return np.arccosh(x)
    elif k == 20:
        return np.arctanh(x)
    elif k == 21:
        return np.rint(x)
    elif k == 22:
        return np.floor(x)
    elif k == 23:
        return np.ceil(x)
    elif k == 24:
        return np.trunc(x)
    elif k == 25:
        return np.fabs(x)
    elif k == 26:
        return np.abs(x)
    elif k == 27:
        return np.absolute(x)
    elif k == 28:
        return np.negative(x)
    elif k == 29:
        return np.square(x)
    return np.sign(x)


def f32_fn(k: Int64, x: Float32) -> Float32:
    """Float32 stays Float32."""
    if k == 0:
        return np.sqrt(x)
    elif k == 1:
        return np.exp(x)
    elif k == 2:
        return np.log(x)
    elif k == 3:
        return np.floor(x)
    elif k == 4:
        return np.abs(x)
    return np.sign(x)


def f64_fn2(k: Int64, x: Float64, y: Float64) -> Float64:
    """The functions of two arguments on Float64."""
    if k == 0:
        return np.arctan2(x, y)
    elif k == 1:
        return hypot(x, y)
    elif k == 2:
        return np.copysign(x, y)
    elif k == 3:
        return np.fmod(x, y)
    elif k == 4:
        return np.power(x, y)
    elif k == 5:
        return np.minimum(x, y)
    elif k == 6:
        return np.maximum(x, y)
    elif k == 7:
        return np.fmin(x, y)
    return np.fmax(x, y)


def int_to_float(k: Int64, n: Int64) -> Float64:
    """Int64 goes to Float64 for the float functions."""
    if k == 0:
        return np.sqrt(n)
    elif k == 1:
        return np.exp(n)
    elif k == 2:
        return np.rint(n)
    elif k == 3:
        return np.arctan2(n, n + 1)
    return np.log(n)


def exp_i8(n: Int8) -> Float16:
    """Int8 goes to Float16, as NumPy's loops say."""
    return np.exp(n)


def sqrt_i16(n: Int16) -> Float32:
    """Int16 goes to Float32."""
    return np.sqrt(n)


def sqrt_u32(n: UInt32) -> Float64:
    """UInt32 goes to Float64."""
    return np.sqrt(n)


def hypot_mixed(a: Int32, b: Float32) -> Float64:
    """Int32 and Float32 meet at Float64 before the function."""
    return np.hypot(a, b)


def int_fn(k: Int64, n: Int32) -> Int32:
    """Integers keep their dtype where NumPy has integer loops."""
    if k == 0:
        return np.abs(n)
    elif k == 1:
        return np.negative(n)
    elif k == 2:
        return np.square(n)
    elif k == 3:
        return np.sign(n)
    elif k == 4:
        return np.floor(n)
    elif k == 5:
        return np.ceil(n)
    elif k == 6:
        return np.trunc(n)
    elif k == 7:
        return np.minimum(n, 3)
    elif k == 8:
        return np.maximum(n, Int32(3))
    elif k == 9:
        return np.fmin(n, 3)
    elif k == 10:
        return np.fmax(n, 3)
    return np.power(n, 2)


def sign_u8(n: UInt8) -> UInt8:
    """The sign of an unsigned integer is 0 or 1."""
    return np.sign(n)


def bool_fn(k: Int64, a: Bool, b: Bool) -> Bool:
    """Bool: `minimum` is `and`, `maximum` is `or`; `abs` and `floor` are itself."""
    if k == 0:
        return np.minimum(a, b)
    elif k == 1:
        return np.maximum(a, b)
    elif k == 2:
        return np.abs(a)
    return np.floor(b)


def square_bool(a: Bool) -> Int8:
    """Bool squares as Int8."""
    return np.square(a)


def magnitude(z: Complex128) -> Float64:
    """The absolute value of a complex number is a float."""
    return np.abs(z)


def classify(k: Int64, x: Float64) -> Bool:
    """isnan, isinf, isfinite."""
    if k == 0:
        return np.isnan(x)
    elif k == 1:
        return np.isinf(x)
    return np.isfinite(x)


def int_is_finite(n: Int64) -> Bool:
    """An integer is finite and never NaN."""
    return np.isfinite(n) and not np.isnan(n) and not np.isinf(n)


def strong_sqrt(x: Float32) -> Float64:
    """`np.sqrt(2.0)` is a NumPy Float64: it makes a Float32 product Float64."""
    return np.sqrt(2.0) * x


def weak_power(x: Float32) -> Float32:
    """A Python float meets a Float32 as NEP 50 says: Float32."""
    return np.power(x, 2.0) + np.minimum(x, 0.5)


def python_ints() -> Int64:
    """NumPy functions of Python ints give NumPy Int64."""
    return np.power(2, 10) + np.abs(-3) + np.maximum(4, 5)


def constants(x: Float64) -> Float64:
    """np.pi, np.e, np.inf and np.nan are Python floats."""
    s = np.pi + pi + np.e
    if x < np.inf and x == x:
        s += x
    if np.isnan(np.nan):
        s += 1.0
    return s


def circle(r: Float32) -> Float32:
    """A weak np.pi keeps a Float32 product Float32."""
    return np.pi * r * r


def int_limits(k: Int64) -> Int64:
    """np.iinfo(T).min, .max and .bits: Python ints, T named by NumPy's
    type, a string or Python's `int`."""
    if k == 0:
        return np.iinfo(np.int8).min
    if k == 1:
        return np.iinfo(np.int32).max
    if k == 2:
        return np.iinfo(np.uint16).max + np.iinfo("int16").bits
    if k == 3:
        return np.iinfo(int).min
    return np.iinfo(np.uint8).bits * np.iinfo(np.int64).bits


def uint64_max() -> UInt64:
    """np.iinfo(np.uint64).max, a Python int above Int64's range."""
    return np.iinfo(np.uint64).max


def clamp_to_int16(x: Int64) -> Int16:
    """Saturates to Int16 through its limits."""
    lo = np.iinfo(np.int16).min
    hi = np.iinfo(np.int16).max
    return Int16(min(max(x, lo), hi))


def float64_limits(k: Int64) -> Float64:
    """np.finfo(np.float64)'s values: NumPy Float64 scalars."""
    if k == 0:
        return np.finfo(np.float64).eps
    if k == 1:
        return np.finfo(np.float64).epsneg
    if k == 2:
        return np.finfo(float).max
    if k == 3:
        return np.finfo(np.float64).min
    if k == 4:
        return np.finfo(np.float64).tiny
    if k == 5:
        return np.finfo(np.float64).smallest_normal
    if k == 6:
        return np.finfo(np.float64).smallest_subnormal
    if k == 7:
        return np.finfo(np.complex128).eps
    return np.finfo(np.float64).resolution


def float32_limits(k: Int64) -> Float32:
    """np.finfo(np.float32)'s values are Float32: with a Python float they
    stay Float32."""
    if k == 0:
        return np.finfo(np.float32).eps * 2.0
    if k == 1:
        return np.finfo("float32").max
    if k == 2:
        return np.finfo(np.float32).tiny
    if k == 3:
        return np.finfo(np.float32).smallest_subnormal
    if k == 4:
        return np.finfo(np.float32).resolution
    return np.finfo(np.float32).min


def float16_limits(k: Int64) -> Float16:
    """np.finfo(np.float16)'s values are Float16."""
    if k == 0:
        return np.finfo(np.float16).eps
    if k == 1:
        return np.finfo(np.float16).max
    if k == 2:
        return np.finfo(np.float16).smallest_subnormal
    return np.finfo(np.float16).resolution


def float_info_ints(k: Int64) -> Int64:
    """np.finfo(T)'s integers, for Float16, Float32 and Float64 at once."""
    if k == 0:
        return 10000 * np.finfo(np.float16).bits + 100 * np.finfo(np.float32).bits + np.finfo(np.float64).bits
    if k == 1:
        return 10000 * np.finfo(np.float16).precision + 100 * np.finfo(np.float32).precision + np.finfo(np.float64).precision
    if k == 2:
        return 10000 * np.finfo(np.float16).nmant + 100 * np.finfo(np.float32).nmant + np.finfo(np.float64).nmant
    if k == 3:
        return 10000 * np.finfo(np.float16).nexp + 100 * np.finfo(np.float32).iexp + np.finfo(np.float64).nexp
    if k == 4:
        return 100000 * np.finfo(np.float16).maxexp + 1000 * np.finfo(np.float32).maxexp + np.finfo(np.float64).maxexp
    if k == 5:
        return 100000 * np.finfo(np.float16).minexp + 1000 * np.finfo(np.float32).minexp + np.finfo(np.float64).minexp
    return 10000 * np.finfo(np.float16).machep + 100 * np.finfo(np.float32).negep + np.finfo(np.float64).machep


def nearly_equal(a: Float32, b: Float32) -> Bool:
    """A relative comparison through Float32's epsilon."""
    return abs(a - b) <= 4.0 * np.finfo(np.float32).eps * max(abs(a), abs(b))


def rounded(x: Float64, k: Int64) -> Float64:
    """np.round and np.around: halves to even, to decimals as NumPy
    rounds them (multiplied by 10**k, rounded, divided back), negative
    decimals to tens, hundreds."""
    if k == 0:
        return np.round(x)
    if k == 1:
        return np.round(x, 2)
    if k == 2:
        return np.around(x, -1)
    if k == 3:
        return np.round(x, 12)
    return np.round(x, -2) + np.round(x, 30)


def rounded_f32(x: Float32) -> Float32:
    """Float32 rounds in Float32."""
    return np.round(x, 1) + np.round(x)


def rounded_ints(n: Int32, b: Bool) -> Float64:
    """An integer is itself (Int32 here); a Bool rounds as NumPy's
    Float16, which meets the Int32 in Float64."""
    return np.round(n, 2) * np.round(b)


def rounded_bool(b: Bool) -> Float16:
    """np.round of a Bool is NumPy's Float16."""
    return np.round(b)


def bo_fold(d: Float64) -> Float64:
    """librosa's fold of a frequency ratio into an octave."""
    return d * (2.0 ** -np.round(np.log2(d)))


def angles(x: Float64, n: Int32) -> Float64:
    """np.radians, np.deg2rad, np.degrees, np.rad2deg: a product with
    NumPy's constant; an integer in Float64."""
    return np.radians(x) + 1000.0 * np.deg2rad(n) + np.degrees(x) * 1e-3 + np.rad2deg(Float64(n))


def angles_f32(x: Float32) -> Float32:
    """In Float32, with NumPy's Float32 constant."""
    return np.radians(x) + np.degrees(x)


def angles_f16(x: Float16, b: Bool) -> Float16:
    """Float16 computes in Float32 and rounds; a Bool is Float16."""
    return np.deg2rad(x) + np.rad2deg(b)


def angles_of_array(a: Float32[:]) -> Float32[:]:
    """Of an array, elementwise, in the array's dtype."""
    return np.degrees(np.radians(a))


def scalar_types(n: Int64, x: Float64) -> Float64:
    """NumPy's scalar types called on numbers: np.float64(0) is a strong
    Float64 zero, np.int32(n) an Int32, np.float32(1.5) a Float32 (NEP 50
    then promotes them as NumPy does)."""
    s = np.float64(0)
    t = np.int32(n) + np.float32(1.5)
    u = np.float32(x) * 3
    return s + t + u + np.int8(-3) + np.bool_(n)


def parameter_types(z: Float32, k: Int16) -> Float32:
    """`type(z)` of a scalar parameter is its NumPy scalar type (Numba's
    too): called, it casts to the parameter's dtype, as numba-stats writes
    `T = type(z)`, `T(0.5)`, and a `dtype=` may name it."""
    T = type(z)
    c = -T(0.5) * (z * z + T(np.log(2 * np.pi)))
    a = np.zeros(3, dtype=T)
    a[1] = c
    return a.sum() + type(k)(7) // type(k)(2) + T(k)
