"""Kernels of numba-stats (https://github.com/HDembinski/numba-stats), MIT
licence, Copyright (c) 2021 Hans Dembinski."""
import math
from math import erf as _erf

import numpy as np

from postyp import Float64, Out

# numba_stats/_util.py: `from numba import prange as _prange`
_prange = range


# _trans: HDembinski/numba-stats, src/numba_stats/_util.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_trans`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit(2) (numba.njit with the signatures float32[:](readonly float32[:], float32, float32) and its float64 twin) removed
#   original signature: def _trans(x: np.ndarray, loc: float, scale: float) -> np.ndarray:
def _trans(x: Float64[:], loc: Float64, scale: Float64) -> Float64[:]:
    inv_scale = type(scale)(1) / scale
    return (x - loc) * inv_scale


# _erf_inplace: HDembinski/numba-stats, src/numba_stats/_util.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_erf_inplace`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @nb.njit(cache=True, inline="always", error_model="numpy") removed
#   original signature: def _erf_inplace(x: np.ndarray) -> None:
def _erf_inplace(x: Out[Float64[:]]) -> None:
    for i in _prange(len(x)):
        x[i] = math.erf(x[i])


# _erfc_inplace: HDembinski/numba-stats, src/numba_stats/_util.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_erfc_inplace`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @nb.njit(cache=True, inline="always", error_model="numpy") removed
#   original signature: def _erfc_inplace(x: np.ndarray) -> None:
def _erfc_inplace(x: Out[Float64[:]]) -> None:
    for i in _prange(len(x)):
        x[i] = math.erfc(x[i])


# _logpdf1: HDembinski/numba-stats, src/numba_stats/norm.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_logpdf1`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit_pointwise(1) (numba.njit with the signatures float32(float32), float64(float64)) removed
#   original signature: def _logpdf1(z: float) -> float:
def _logpdf1(z: Float64) -> Float64:
    T = type(z)
    return -T(0.5) * (z * z + T(np.log(2 * np.pi)))


# _cdf1: HDembinski/numba-stats, src/numba_stats/norm.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_cdf1`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit_pointwise(1) (numba.njit with the signatures float32(float32), float64(float64)) removed
#   original signature: def _cdf1(z: float) -> float:
def _cdf1(z: Float64) -> Float64:
    T = type(z)
    c = T(np.sqrt(0.5))
    return T(0.5) * (T(1.0) + _erf(z * c))


# _logpdf: HDembinski/numba-stats, src/numba_stats/norm.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_logpdf`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit(2) (numba.njit with the signatures float32[:](readonly float32[:], float32, float32) and its float64 twin) removed
#   original signature: def _logpdf(x: np.ndarray, loc: float, scale: float) -> np.ndarray:
def _logpdf(x: Float64[:], loc: Float64, scale: Float64) -> Float64[:]:
    r = _trans(x, loc, scale)
    for i in _prange(len(r)):
        r[i] = _logpdf1(r[i]) - np.log(scale)
    return r


# _pdf: HDembinski/numba-stats, src/numba_stats/norm.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_pdf`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit(2) (numba.njit with the signatures float32[:](readonly float32[:], float32, float32) and its float64 twin) removed
#   original signature: def _pdf(x: np.ndarray, loc: float, scale: float) -> np.ndarray:
def _pdf(x: Float64[:], loc: Float64, scale: Float64) -> Float64[:]:
    return np.exp(_logpdf(x, loc, scale))


# _cdf: HDembinski/numba-stats, src/numba_stats/norm.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_cdf`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit(2) (numba.njit with the signatures float32[:](readonly float32[:], float32, float32) and its float64 twin) removed
#   original signature: def _cdf(x: np.ndarray, loc: float, scale: float) -> np.ndarray:
def _cdf(x: Float64[:], loc: Float64, scale: Float64) -> Float64[:]:
    r = _trans(x, loc, scale)
    for i in _prange(len(r)):
        r[i] = _cdf1(r[i])
    return r


# _density: HDembinski/numba-stats, src/numba_stats/cruijff.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_density`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit(5) (numba.njit with the signatures float32[:](readonly float32[:], float32 x5) and its float64 twin) removed
#   original signature: def _density(x: np.ndarray, beta_left: float, beta_right: float, loc: float, scale_left: float, scale_right: float) -> np.ndarray:
def _density(
    x: Float64[:],
    beta_left: Float64,
    beta_right: Float64,
    loc: Float64,
    scale_left: Float64,
    scale_right: Float64,
) -> Float64[:]:
    r = np.empty_like(x)
    for i in _prange(len(x)):
        if x[i] < loc:
            scale = scale_left
            beta = beta_left
        else:
            scale = scale_right
            beta = beta_right
        z = (x[i] - loc) / scale
        r[i] = -0.5 * z**2 / (1 + beta * z**2)
    return np.exp(r)  # type:ignore[no-any-return]


# _de_castlejau: HDembinski/numba-stats, src/numba_stats/bernstein.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_de_castlejau`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit(0, narg=2) (numba.njit with the signatures float32[:](readonly float32[:], readonly float32[:]) and its float64 twin) removed
#   original signature: def _de_castlejau(z: np.ndarray, beta: np.ndarray) -> np.ndarray:
def _de_castlejau(z: Float64[:], beta: Float64[:]) -> Float64[:]:
    # De Casteljau algorithm, numerically stable
    n = len(beta)
    res = np.full_like(z, np.nan)
    betai = np.empty_like(beta)
    # not sure how to parallelize this, each worker thread needs its own betai
    for i in range(len(z)):
        betai[:] = beta
        azi = 1.0 - z[i]
        for j in range(1, n):
            for k in range(n - j):
                betai[k] = betai[k] * azi + betai[k + 1] * z[i]
        res[i] = betai[0]
    return res


# _beta_int: HDembinski/numba-stats, src/numba_stats/bernstein.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_beta_int`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit(0) (numba.njit with the signatures float32[:](readonly float32[:]) and its float64 twin) removed
#   original signature: def _beta_int(beta: np.ndarray) -> np.ndarray:
def _beta_int(beta: Float64[:]) -> Float64[:]:
    n = len(beta)
    r = np.zeros(n + 1, dtype=beta.dtype)
    for j in range(1, n + 1):
        for k in range(j):
            r[j] += beta[k]
    r *= 1.0 / n
    return r


# _integral: HDembinski/numba-stats, src/numba_stats/bernstein.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_integral`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit(2, narg=2) (numba.njit with the signatures float32[:](readonly float32[:], readonly float32[:], float32, float32) and its float64 twin) removed
#   original signature: def _integral(x: np.ndarray, beta: np.ndarray, xmin: float, xmax: float) -> np.ndarray:
def _integral(x: Float64[:], beta: Float64[:], xmin: Float64, xmax: Float64) -> Float64[:]:
    """
    Return integral of a Bernstein polynomial from xmin to x.

    Parameters
    ----------
    x : ArrayLike
        Values up to which the integral is computed, starting from xmin.
    beta : ArrayLike
        Vector of parameters (1D).
    xmin : float
        Lower edge of the domain of x.
    xmax : float
        Upper edge of the domain of x.

    Returns
    -------
    ndarray
        Integral values.

    Examples
    --------
    >>> import numpy as np
    >>> from numba_stats import bernstein
    >>> x = np.linspace(-1, 1)
    >>> y = bernstein.integral(x, [1, 2], -1, 1)

    See Also
    --------
    scipy.interpolate.BPoly
    """
    scale = xmax - xmin
    z = _trans(x, xmin, scale)
    beta = _beta_int(beta) * scale
    return _de_castlejau(z, beta)


# _log_powerlaw: HDembinski/numba-stats, src/numba_stats/crystalball.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_log_powerlaw`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit_pointwise(3) (numba.njit with the signatures float32(float32, float32, float32) and its float64 twin) removed
#   original signature: def _log_powerlaw(z: float, beta: float, m: float) -> float:
def _log_powerlaw(z: Float64, beta: Float64, m: Float64) -> Float64:
    T = type(beta)
    c = -T(0.5) * beta * beta
    log_a = m * np.log(m / beta) + c
    b = m / beta - beta
    return log_a - m * np.log(b - z)  # type:ignore[no-any-return]


# _powerlaw_integral: HDembinski/numba-stats, src/numba_stats/crystalball.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_powerlaw_integral`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit_pointwise(3) (numba.njit with the signatures float32(float32, float32, float32) and its float64 twin) removed
#   original signature: def _powerlaw_integral(z: float, beta: float, m: float) -> float:
def _powerlaw_integral(z: Float64, beta: Float64, m: Float64) -> Float64:
    T = type(beta)
    log_a = m * np.log(m / beta) - T(0.5) * beta * beta
    b = m / beta - beta
    m1 = m - T(1)
    return np.exp(log_a - m1 * np.log(b - z) - np.log(m1))  # type:ignore[no-any-return]


# _normal_integral: HDembinski/numba-stats, src/numba_stats/crystalball.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_normal_integral`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit_pointwise(2) (numba.njit with the signatures float32(float32, float32) and its float64 twin) removed
#   original signature: def _normal_integral(a: float, b: float) -> float:
def _normal_integral(a: Float64, b: Float64) -> Float64:
    T = type(a)
    sqrt_half = np.sqrt(T(0.5))
    return sqrt_half * np.sqrt(T(np.pi)) * (_erf(b * sqrt_half) - _erf(a * sqrt_half))  # type:ignore[no-any-return]


# _powerlaw_ppf: HDembinski/numba-stats, src/numba_stats/crystalball.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_powerlaw_ppf`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit_pointwise(3) (numba.njit with the signatures float32(float32, float32, float32) and its float64 twin) removed
#   original signature: def _powerlaw_ppf(p: float, beta: float, m: float) -> float:
def _powerlaw_ppf(p: Float64, beta: Float64, m: Float64) -> Float64:
    T = type(beta)
    log_a = m * np.log(m / beta) - T(0.5) * beta * beta
    b = m / beta - beta
    m1 = m - T(1)
    log_term = (-T(1) / m1) * (np.log(p) + np.log(m1) - log_a)
    term = np.exp(log_term)
    return b - term  # type:ignore[no-any-return]


# _log_density: HDembinski/numba-stats, src/numba_stats/crystalball.py @ 1e234ddeadeb37f517a7196b6e78ccd0d943e41e
#   function `_log_density`; licence MIT; Copyright (c) 2021 Hans Dembinski
#   changed: type annotations added in place of the project's own; the decorator @_jit_pointwise(3) (numba.njit with the signatures float32(float32, float32, float32) and its float64 twin) removed
#   original signature: def _log_density(z: float, beta: float, m: float) -> float:
def _log_density(z: Float64, beta: Float64, m: Float64) -> Float64:
    if z < -beta:
        return _log_powerlaw(z, beta, m)
    return -0.5 * z * z


# ---------------------------------------------------------------------------
# Call recipes: the float64 arrays the public wrappers (`norm.pdf(x, loc,
# scale)`, `cruijff.density(...)`, `bernstein.integral(x, beta, xmin, xmax)`)
# flatten and pass, and the scalars of the crystalball parameters of the
# project's tests (beta=1, m=2), from fixed seeds.

def _x(n=1000, seed=0):
    return np.random.default_rng(seed).normal(0.5, 2.0, n)


def args__trans():
    return (_x(seed=1), 0.5, 2.0)


def args__erf_inplace():
    return (_x(seed=2),)


def args__erfc_inplace():
    return (_x(seed=3),)


def args__logpdf1():
    return (0.7,)


def args__cdf1():
    return (-1.3,)


def args__logpdf():
    return (_x(seed=4), 0.5, 2.0)


def args__pdf():
    return (_x(seed=5), 0.5, 2.0)


def args__cdf():
    return (_x(seed=6), 0.5, 2.0)


def args__density():
    return (_x(seed=7), 0.1, 0.2, 0.5, 1.0, 2.0)


def args__de_castlejau():
    rng = np.random.default_rng(8)
    return (rng.random(200), rng.random(5))


def args__beta_int():
    return (np.random.default_rng(9).random(6),)


def args__integral():
    rng = np.random.default_rng(10)
    return (rng.uniform(-1.0, 1.0, 200), rng.random(4), -1.0, 1.0)


def args__log_powerlaw():
    return (-2.5, 1.0, 2.0)


def args__powerlaw_integral():
    return (-1.0, 1.0, 2.0)


def args__normal_integral():
    return (-1.0, np.inf)


def args__powerlaw_ppf():
    return (0.3, 1.0, 2.0)


def args__log_density():
    return (-2.5, 1.0, 2.0)
