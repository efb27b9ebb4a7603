"""Pure-Python stand-in for `postc.math`: libm-compatible intrinsics.

Each function keeps its argument's float dtype: a Float32 argument gives a
Float32 result (computed in Float64 by the C library's libm, then rounded
once), Float16 gives Float16, Float64 and integers give Float64. The
double-precision libm functions are called through ctypes where the C
library can be found (so results are the platform libm's, as compiled code
gets them), else Python's `math` module stands in. Two-argument functions
take NumPy 2's promotion of their operands (a Python float is weak:
`atan2(y32, 1.0)` is Float32).
Domain errors give NaN or an infinity as C's libm does, never an exception.
"""

import ctypes as _ctypes
import ctypes.util as _ctypes_util
import math as _m

import numpy as _np


def _load_libm():
    for name in (_ctypes_util.find_library("m"), "libm.so.6", None):
        try:
            lib = _ctypes.CDLL(name)
            lib.cos  # noqa: B018  (present?)
            return lib
        except (OSError, AttributeError, TypeError):
            continue
    return None


_LIBM = _load_libm()


def _c(name, nargs, fallback):
    """The libm function `name` on doubles, or `fallback` without libm."""
    if _LIBM is None:
        return fallback
    try:
        f = getattr(_LIBM, name)
    except AttributeError:
        return fallback
    f.restype = _ctypes.c_double
    f.argtypes = [_ctypes.c_double] * nargs
    return f


__all__ = [
    "sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin",
    "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh",
    "acosh", "atanh", "floor", "ceil", "trunc", "fabs", "cbrt", "erf", "erfc",
    "lgamma", "tgamma", "atan2", "hypot", "pow", "fmod", "copysign", "fmin",
    "fmax", "pi", "e", "tau", "inf", "nan",
]

# The constants, as Python floats (weak in NumPy 2's promotion, as the
# frontend folds them).
pi = _m.pi
e = _m.e
tau = _m.tau
inf = _m.inf
nan = _m.nan

_FLOATS = (_np.float16, _np.float32, _np.float64)


def _dtype1(x):
    if isinstance(x, _np.generic):
        t = type(x)
        if t in _FLOATS:
            return t
        if issubclass(t, (_np.integer, _np.bool_)):
            return _np.float64
        raise TypeError(f"postc.math: not a real number: {x!r}")
    if isinstance(x, (bool, int, float)):
        return _np.float64
    raise TypeError(f"postc.math: not a real number: {x!r}")


def _dtype2(x, y):
    sx = isinstance(x, _np.generic)
    sy = isinstance(y, _np.generic)
    for v in (x, y):
        _dtype1(v)
    if sx and sy:
        t = _np.result_type(x, y).type
    elif sx:
        t = _dtype1(x)
    elif sy:
        t = _dtype1(y)
    else:
        t = _np.float64
    if t not in _FLOATS:
        t = _np.float64
    return t


def _unary(name, libm, numpy_fallback):
    def f(x):
        t = _dtype1(x)
        v = float(x)
        try:
            r = libm(v)
        except (ValueError, OverflowError):
            with _np.errstate(all="ignore"):
                r = float(numpy_fallback(_np.float64(v)))
        return t(_np.float64(r))

    f.__name__ = name
    f.__doc__ = f"libm {name}, keeping the argument's float dtype."
    return f


def _binary(name, libm, numpy_fallback):
    def f(x, y):
        t = _dtype2(x, y)
        a, b = float(x), float(y)
        try:
            r = libm(a, b)
        except (ValueError, OverflowError, ZeroDivisionError):
            with _np.errstate(all="ignore"):
                r = float(numpy_fallback(_np.float64(a), _np.float64(b)))
        return t(_np.float64(r))

    f.__name__ = name
    f.__doc__ = f"libm {name}, with NumPy 2 promotion of the operands."
    return f


def _lgamma(x):
    if x <= 0 and x == _m.floor(x):
        return _m.inf
    return _m.lgamma(x)


def _tgamma_fallback(x):
    x = float(x)
    if x == 0:
        return _m.copysign(_m.inf, x)
    if x < 0 and x == _m.floor(x):
        return _m.nan
    if x == -_m.inf:
        return _m.nan
    return _m.inf


def _log_fallback(fn):
    def g(x):
        x = float(x)
        if x == 0:
            return -_m.inf
        if x < 0:
            return _m.nan
        return float(fn(_np.float64(x)))
    return g


sqrt = _unary("sqrt", _c("sqrt", 1, _m.sqrt), _np.sqrt)
exp = _unary("exp", _c("exp", 1, _m.exp), _np.exp)
exp2 = _unary("exp2", _c("exp2", 1, _m.exp2), _np.exp2)
expm1 = _unary("expm1", _c("expm1", 1, _m.expm1), _np.expm1)
log = _unary("log", _c("log", 1, _m.log), _log_fallback(_np.log))
log2 = _unary("log2", _c("log2", 1, _m.log2), _log_fallback(_np.log2))
log10 = _unary("log10", _c("log10", 1, _m.log10), _log_fallback(_np.log10))
log1p = _unary("log1p", _c("log1p", 1, _m.log1p), _np.log1p)
sin = _unary("sin", _c("sin", 1, _m.sin), _np.sin)
cos = _unary("cos", _c("cos", 1, _m.cos), _np.cos)
tan = _unary("tan", _c("tan", 1, _m.tan), _np.tan)
asin = _unary("asin", _c("asin", 1, _m.asin), _np.arcsin)
acos = _unary("acos", _c("acos", 1, _m.acos), _np.arccos)
atan = _unary("atan", _c("atan", 1, _m.atan), _np.arctan)
sinh = _unary("sinh", _c("sinh", 1, _m.sinh), _np.sinh)
cosh = _unary("cosh", _c("cosh", 1, _m.cosh), _np.cosh)
tanh = _unary("tanh", _c("tanh", 1, _m.tanh), _np.tanh)
asinh = _unary("asinh", _c("asinh", 1, _m.asinh), _np.arcsinh)
acosh = _unary("acosh", _c("acosh", 1, _m.acosh), _np.arccosh)
atanh = _unary("atanh", _c("atanh", 1, _m.atanh), _np.arctanh)
floor = _unary("floor", _c("floor", 1, lambda v: float(_np.floor(v))), _np.floor)
ceil = _unary("ceil", _c("ceil", 1, lambda v: float(_np.ceil(v))), _np.ceil)
trunc = _unary("trunc", _c("trunc", 1, lambda v: float(_np.trunc(v))), _np.trunc)
fabs = _unary("fabs", _c("fabs", 1, _m.fabs), _np.fabs)
cbrt = _unary("cbrt", _c("cbrt", 1, _m.cbrt), _np.cbrt)
erf = _unary("erf", _c("erf", 1, _m.erf), lambda v: _np.nan)
erfc = _unary("erfc", _c("erfc", 1, _m.erfc), lambda v: _np.nan)
lgamma = _unary("lgamma", _c("lgamma", 1, _lgamma), lambda v: _np.inf)
tgamma = _unary("tgamma", _c("tgamma", 1, _m.gamma), _tgamma_fallback)

atan2 = _binary("atan2", _c("atan2", 2, _m.atan2), _np.arctan2)
hypot = _binary("hypot", _c("hypot", 2, _m.hypot), _np.hypot)
pow = _binary("pow", _c("pow", 2, _m.pow), _np.power)
fmod = _binary("fmod", _c("fmod", 2, _m.fmod), _np.fmod)
copysign = _binary("copysign", _c("copysign", 2, _m.copysign), _np.copysign)
fmin = _binary("fmin", _c("fmin", 2, lambda a, b: float(_np.fmin(a, b))), _np.fmin)
fmax = _binary("fmax", _c("fmax", 2, lambda a, b: float(_np.fmax(a, b))), _np.fmax)
