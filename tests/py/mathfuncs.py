"""Every libm intrinsic of postc.math, one wrapper per function, in
Float64 and (for a selection) Float32: the result keeps the argument's
float dtype."""
import postc.math
from postyp import Float32, Float64
from postc.math import (
    sqrt, exp, exp2, expm1, log, log2, log10, log1p, sin, cos, tan, asin,
    acos, atan, sinh, cosh, tanh, asinh, acosh, atanh, floor, ceil, trunc,
    fabs, cbrt, erf, erfc, lgamma, tgamma, atan2, hypot, pow, fmod,
    copysign, fmin, fmax,
)


def sqrt_f64(x: Float64) -> Float64:
    """sqrt(x)."""
    return sqrt(x)


def exp_f64(x: Float64) -> Float64:
    """exp(x)."""
    return exp(x)


def exp2_f64(x: Float64) -> Float64:
    """exp2(x)."""
    return exp2(x)


def expm1_f64(x: Float64) -> Float64:
    """expm1(x)."""
    return expm1(x)


def log_f64(x: Float64) -> Float64:
    """log(x)."""
    return log(x)


def log2_f64(x: Float64) -> Float64:
    """log2(x)."""
    return log2(x)


def log10_f64(x: Float64) -> Float64:
    """log10(x)."""
    return log10(x)


def log1p_f64(x: Float64) -> Float64:
    """log1p(x)."""
    return log1p(x)


def sin_f64(x: Float64) -> Float64:
    """sin(x)."""
    return sin(x)


def cos_f64(x: Float64) -> Float64:
    """cos(x)."""
    return cos(x)


def tan_f64(x: Float64) -> Float64:
    """tan(x)."""
    return tan(x)


def asin_f64(x: Float64) -> Float64:
    """asin(x)."""
    return asin(x)


def acos_f64(x: Float64) -> Float64:
    """acos(x)."""
    return acos(x)


def atan_f64(x: Float64) -> Float64:
    """atan(x)."""
    return atan(x)


def sinh_f64(x: Float64) -> Float64:
    """sinh(x)."""
    return sinh(x)


def cosh_f64(x: Float64) -> Float64:
    """cosh(x)."""
    return cosh(x)


def tanh_f64(x: Float64) -> Float64:
    """tanh(x)."""
    return tanh(x)


def asinh_f64(x: Float64) -> Float64:
    """asinh(x)."""
    return asinh(x)


def acosh_f64(x: Float64) -> Float64:
    """acosh(x)."""
    return acosh(x)


def atanh_f64(x: Float64) -> Float64:
    """atanh(x)."""
    return atanh(x)


def floor_f64(x: Float64) -> Float64:
    """floor(x)."""
    return floor(x)


def ceil_f64(x: Float64) -> Float64:
    """ceil(x)."""
    return ceil(x)


def trunc_f64(x: Float64) -> Float64:
    """trunc(x)."""
    return trunc(x)


def fabs_f64(x: Float64) -> Float64:
    """fabs(x)."""
    return fabs(x)


def cbrt_f64(x: Float64) -> Float64:
    """cbrt(x)."""
    return cbrt(x)


def erf_f64(x: Float64) -> Float64:
    """erf(x)."""
    return erf(x)


def erfc_f64(x: Float64) -> Float64:
    """erfc(x)."""
    return erfc(x)


def lgamma_f64(x: Float64) -> Float64:
    """lgamma(x)."""
    return lgamma(x)


def tgamma_f64(x: Float64) -> Float64:
    """tgamma(x)."""
    return tgamma(x)


def atan2_f64(x: Float64, y: Float64) -> Float64:
    """atan2(x, y)."""
    return atan2(x, y)


def hypot_f64(x: Float64, y: Float64) -> Float64:
    """hypot(x, y)."""
    return hypot(x, y)


def pow_f64(x: Float64, y: Float64) -> Float64:
    """pow(x, y)."""
    return pow(x, y)


def fmod_f64(x: Float64, y: Float64) -> Float64:
    """fmod(x, y)."""
    return fmod(x, y)


def copysign_f64(x: Float64, y: Float64) -> Float64:
    """copysign(x, y)."""
    return copysign(x, y)


def fmin_f64(x: Float64, y: Float64) -> Float64:
    """fmin(x, y)."""
    return fmin(x, y)


def fmax_f64(x: Float64, y: Float64) -> Float64:
    """fmax(x, y)."""
    return fmax(x, y)


def sqrt_f32(x: Float32) -> Float32:
    """postc.math.sqrt on a Float32 is Float32."""
    return postc.math.sqrt(x)


def exp_f32(x: Float32) -> Float32:
    """postc.math.exp on a Float32 is Float32."""
    return postc.math.exp(x)


def log_f32(x: Float32) -> Float32:
    """postc.math.log on a Float32 is Float32."""
    return postc.math.log(x)


def sin_f32(x: Float32) -> Float32:
    """postc.math.sin on a Float32 is Float32."""
    return postc.math.sin(x)


def cos_f32(x: Float32) -> Float32:
    """postc.math.cos on a Float32 is Float32."""
    return postc.math.cos(x)


def tanh_f32(x: Float32) -> Float32:
    """postc.math.tanh on a Float32 is Float32."""
    return postc.math.tanh(x)


def floor_f32(x: Float32) -> Float32:
    """postc.math.floor on a Float32 is Float32."""
    return postc.math.floor(x)


def cbrt_f32(x: Float32) -> Float32:
    """postc.math.cbrt on a Float32 is Float32."""
    return postc.math.cbrt(x)


def lgamma_f32(x: Float32) -> Float32:
    """postc.math.lgamma on a Float32 is Float32."""
    return postc.math.lgamma(x)


def atan2_f32(x: Float32, y: Float32) -> Float32:
    """postc.math.atan2 on Float32 operands is Float32."""
    return postc.math.atan2(x, y)


def hypot_f32(x: Float32, y: Float32) -> Float32:
    """postc.math.hypot on Float32 operands is Float32."""
    return postc.math.hypot(x, y)


def pow_f32(x: Float32, y: Float32) -> Float32:
    """postc.math.pow on Float32 operands is Float32."""
    return postc.math.pow(x, y)


def fmin_f32(x: Float32, y: Float32) -> Float32:
    """postc.math.fmin on Float32 operands is Float32."""
    return postc.math.fmin(x, y)


def mixed_atan2_f32(y: Float32) -> Float32:
    """A Float64 literal operand takes the Float32 dtype (NEP 50)."""
    return atan2(y, 1.0)


def f32_times_sqrt3(x: Float32) -> Float64:
    """`postc.math.sqrt(3.0)` of a Python float is a NumPy Float64 (strong),
    so the product with a Float32 is Float64, not Float32."""
    return x * postc.math.sqrt(3.0)


def pythagoras(x: Float64) -> Float64:
    """sin(x)**2 + cos(x)**2, close to 1."""
    s = sin(x)
    c = cos(x)
    return s * s + c * c
