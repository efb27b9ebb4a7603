"""Special functions from the libm intrinsics: log-gamma under an alias,
log-binomials, the normal distribution, Float32 variants."""
from postyp import Float32, Float64, Int64
from postc.math import lgamma, tgamma, erf, erfc, exp, log, sqrt

__all__ = ["log_beta", "log_binom", "binom_f", "normal_cdf", "normal_pdf",
           "erf32", "gamma_ratio", "logistic32", "gammaln", "entropy_term",
           "log_sqrt", "log_gamma32"]

gammaln = lgamma
SQRT2 = 1.4142135623730951
INV_SQRT_2PI: Float64 = 0.3989422804014327


def log_beta(a: Float64, b: Float64) -> Float64:
    """log B(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b)."""
    return gammaln(a) + gammaln(b) - gammaln(a + b)


def log_binom(n: Int64, k: Int64) -> Float64:
    """log C(n, k) through the alias."""
    return gammaln(Float64(n + 1)) - gammaln(Float64(k + 1)) - gammaln(Float64(n - k + 1))


def binom_f(n: Int64, k: Int64) -> Float64:
    """C(n, k) as a float: exp of log_binom."""
    return exp(log_binom(n, k))


def normal_cdf(x: Float64) -> Float64:
    """Phi(x) = erfc(-x / sqrt 2) / 2."""
    return 0.5 * erfc(-x / SQRT2)


def normal_pdf(x: Float64) -> Float64:
    """phi(x) = exp(-x**2 / 2) / sqrt(2 pi)."""
    return INV_SQRT_2PI * exp(-0.5 * x * x)


def erf32(x: Float32) -> Float32:
    """erf keeps the Float32 dtype."""
    return erf(x)


def gamma_ratio(a: Float64, b: Float64) -> Float64:
    """tgamma(a) / tgamma(b)."""
    return tgamma(a) / tgamma(b)


def logistic32(x: Float32) -> Float32:
    """1 / (1 + exp(-x)) in Float32; the literals stay Float32."""
    return 1.0 / (1.0 + exp(-x))


def entropy_term(p: Float64) -> Float64:
    """-p log p, 0 at p == 0."""
    if p == 0.0:
        return 0.0
    return -p * log(p)


def log_sqrt(x: Float64) -> Float64:
    """log(sqrt(x)) == log(x) / 2 within rounding."""
    return log(sqrt(x))


def log_gamma32(x: Float32) -> Float32:
    """log-gamma of a Float32 through the alias: the intrinsic keeps the
    dtype (the alias itself, called from Python, is of Float64)."""
    return gammaln(x) + gammaln(x + Float32(1.0))
