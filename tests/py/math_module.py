"""Python's math module in compiled code, with CPython's results: every
float function returns a Python float whatever the argument's dtype
(Float32, Float64, Int64, Bool), floor/ceil/trunc return Python ints,
isnan/isinf/isfinite Python bools, and domain and range errors raise
CPython's ValueError/OverflowError. Python floats and ints are weak:
meeting a Float32 or an Int32 they take its dtype (NEP 50)."""
import math
from math import floor as floor_of, hypot, pi
from postyp import Bool, Float32, Float64, Int32, Int64

def float1(k: Int64, t: Int64, x: Float64, x32: Float32, n: Int64, b: Bool) -> Float64:
    """The one-argument float function number k of Python's math, of x
    (t = 0), the Float32 x32 (t = 1, widened exactly), the int n (t = 2,
    converted to a Python float) or the bool b (t = 3, 0.0 or 1.0)."""
    if k == 0:
        return math.sqrt(x) if t == 0 else math.sqrt(x32) if t == 1 else math.sqrt(n) if t == 2 else math.sqrt(b)
    if k == 1:
        return math.cbrt(x) if t == 0 else math.cbrt(x32) if t == 1 else math.cbrt(n) if t == 2 else math.cbrt(b)
    if k == 2:
        return math.exp(x) if t == 0 else math.exp(x32) if t == 1 else math.exp(n) if t == 2 else math.exp(b)
    if k == 3:
        return math.exp2(x) if t == 0 else math.exp2(x32) if t == 1 else math.exp2(n) if t == 2 else math.exp2(b)
    if k == 4:
        return math.expm1(x) if t == 0 else math.expm1(x32) if t == 1 else math.expm1(n) if t == 2 else math.expm1(b)
    if k == 5:
        return math.log(x) if t == 0 else math.log(x32) if t == 1 else math.log(n) if t == 2 else math.log(b)
    if k == 6:
        return math.log2(x) if t == 0 else math.log2(x32) if t == 1 else math.log2(n) if t == 2 else math.log2(b)
    if k == 7:
        return math.log10(x) if t == 0 else math.log10(x32) if t == 1 else math.log10(n) if t == 2 else math.log10(b)
    if k == 8:
        return math.log1p(x) if t == 0 else math.log1p(x32) if t == 1 else math.log1p(n) if t == 2 else math.log1p(b)
    if k == 9:
        return math.sin(x) if t == 0 else math.sin(x32) if t == 1 else math.sin(n) if t == 2 else math.sin(b)
    if k == 10:
        return math.cos(x) if t == 0 else math.cos(x32) if t == 1 else math.cos(n) if t == 2 else math.cos(b)
    if k == 11:
        return math.tan(x) if t == 0 else math.tan(x32) if t == 1 else math.tan(n) if t == 2 else math.tan(b)
    if k == 12:
        return math.asin(x) if t == 0 else math.asin(x32) if t == 1 else math.asin(n) if t == 2 else math.asin(b)
    if k == 13:
        return math.acos(x) if t == 0 else math.acos(x32) if t == 1 else math.acos(n) if t == 2 else math.acos(b)
    if k == 14:
        return math.atan(x) if t == 0 else math.atan(x32) if t == 1 else math.atan(n) if t == 2 else math.atan(b)
    if k == 15:
        return math.sinh(x) if t == 0 else math.sinh(x32) if t == 1 else math.sinh(n) if t == 2 else math.sinh(b)
    if k == 16:
        return math.cosh(x) if t == 0 else math.cosh(x32) if t == 1 else math.cosh(n) if t == 2 else math.cosh(b)
    if k == 17:
        return math.tanh(x) if t == 0 else math.tanh(x32) if t == 1 else math.tanh(n) if t == 2 else math.tanh(b)
    if k == 18:
        return math.asinh(x) if t == 0 else math.asinh(x32) if t == 1 else math.asinh(n) if t == 2 else math.asinh(b)
    if k == 19:
        return math.acosh(x) if t == 0 else math.acosh(x32) if t == 1 else math.acosh(n) if t == 2 else math.acosh(b)
    if k == 20:
        return math.atanh(x) if t == 0 else math.atanh(x32) if t == 1 else math.atanh(n) if t == 2 else math.atanh(b)
    if k == 21:
        return math.erf(x) if t == 0 else math.erf(x32) if t == 1 else math.erf(n) if t == 2 else math.erf(b)
    if k == 22:
        return math.erfc(x) if t == 0 else math.erfc(x32) if t == 1 else math.erfc(n) if t == 2 else math.erfc(b)
    if k == 23:
        return math.gamma(x) if t == 0 else math.gamma(x32) if t == 1 else math.gamma(n) if t == 2 else math.gamma(b)
    if k == 24:
        return math.lgamma(x) if t == 0 else math.lgamma(x32) if t == 1 else math.lgamma(n) if t == 2 else math.lgamma(b)
    return math.fabs(x) if t == 0 else math.fabs(x32) if t == 1 else math.fabs(n) if t == 2 else math.fabs(b)


def float2(k: Int64, x: Float64, y: Float64) -> Float64:
    """The two-argument float function number k of Python's math."""
    if k == 0:
        return math.atan2(x, y)
    if k == 1:
        return hypot(x, y)
    if k == 2:
        return math.copysign(x, y)
    if k == 3:
        return math.fmod(x, y)
    return math.pow(x, y)


def sqrt_f32(x: Float32) -> Float64:
    """math.sqrt of a Float32 is a Python float, computed in double."""
    return math.sqrt(x)


def exp_f32(x: Float32) -> Float64:
    """math.exp of a Float32: double precision, as CPython."""
    return math.exp(x)


def pow_f32(x: Float32, y: Float32) -> Float64:
    """math.pow of Float32 arguments."""
    return math.pow(x, y)


def atan2_f32(y: Float32, x: Float32) -> Float64:
    """math.atan2 of Float32 arguments."""
    return math.atan2(y, x)


def log_int(n: Int64) -> Float64:
    """An int argument becomes a Python float."""
    return math.log(n)


def hypot_int(a: Int64, b: Int64) -> Float64:
    """Ints to math.hypot."""
    return math.hypot(a, b)


def sqrt_bool(b: Bool) -> Float64:
    """A bool argument is 0.0 or 1.0."""
    return math.sqrt(b) + math.exp(b)


def copysign_bool(b: Bool, y: Float64) -> Float64:
    """math.copysign of a bool."""
    return math.copysign(b, y)


def floor_f64(x: Float64) -> Int64:
    """math.floor: a Python int; NaN and infinities raise."""
    return math.floor(x)


def ceil_f64(x: Float64) -> Int64:
    """math.ceil: a Python int."""
    return math.ceil(x)


def trunc_f64(x: Float64) -> Int64:
    """math.trunc: a Python int."""
    return math.trunc(x)


def rounding_f32(x: Float32) -> Int64:
    """floor, ceil and trunc of a Float32, imported both ways (trunc
    takes Python floats and Float64 only, as NumPy's Float32 has no
    __trunc__)."""
    return floor_of(x) * 10000 + math.ceil(x) * 100 + math.trunc(float(x))


def rounding_int(n: Int64, b: Bool) -> Int64:
    """floor, ceil and trunc of Python ints are the ints themselves; of
    NumPy's integers (no __floor__) they go through a float, as CPython
    does."""
    return math.floor(n) + math.ceil(b) * 1000 + math.trunc(int(n)) * 10 + math.floor(int(n)) * 100


def rounding_locals(x: Float64, n: Int64) -> Int64:
    """floor, ceil and trunc bound to locals (Python ints), then used as
    ints: a cell index as kernels compute one."""
    lo = math.floor(x)
    hi = math.ceil(x) + 1
    k = math.trunc(x)
    m = math.floor(n)
    span = hi - lo
    return lo * 1000000 + span * 10000 + k * 100 + m


def classify(x: Float64) -> Int64:
    """isnan, isinf, isfinite as bits."""
    bits = 0
    if math.isnan(x):
        bits += 1
    if math.isinf(x):
        bits += 2
    if math.isfinite(x):
        bits += 4
    return bits


def classify_f32(x: Float32) -> Bool:
    """isfinite of a Float32."""
    return math.isfinite(x)


def classify_int(n: Int64, b: Bool) -> Bool:
    """An int or bool is finite, never NaN."""
    return math.isfinite(n) and not math.isnan(b) and not math.isinf(n)


def weak_float_meets_f32(x: Float32) -> Float32:
    """A Python float meeting a Float32 is Float32 (NEP 50)."""
    return x * math.sqrt(x) + math.pi


def weak_int_meets_i32(n: Int32, x: Float64) -> Int32:
    """A Python int meeting an Int32 is Int32."""
    return n + math.floor(x)


def constants(x: Float32) -> Float32:
    """The constants are Python floats: with a Float32 they stay Float32."""
    return x * pi + math.e - math.tau / 4.0


def special_constants(k: Int64) -> Float64:
    """math.inf and math.nan."""
    if k == 0:
        return math.inf
    if k == 1:
        return -math.inf
    return math.nan


def circle_area(r: Float32) -> Float64:
    """A Float32 radius: the area is a Python float (double)."""
    return math.pi * math.pow(r, 2.0) + 0.0 * math.sqrt(r)


def close(x: Float64, y: Float64) -> Bool:
    """math.isclose with its defaults (rel_tol=1e-09, abs_tol=0.0): within
    1e-09 of the larger magnitude; an infinity is close to itself only, NaN
    to nothing."""
    return math.isclose(x, y)


def close_mixed(x: Float32, n: Int64) -> Bool:
    """math.isclose of a Float32 and an int, each taken as a Python float."""
    return math.isclose(x, n)


def common_divisor(a: Int64, b: Int32) -> Int64:
    """math.gcd of integers, NumPy's and Python's: a Python int of the
    magnitudes (sgkit's binomial coefficients divide by it)."""
    return math.gcd(a, b) * 1000 + math.gcd(int(a), 12) + math.gcd(0, 0)
