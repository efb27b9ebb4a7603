"""Kernels of ArviZ (https://github.com/arviz-devs/arviz), Apache-2.0 licence
(its licence file names no copyright holder; the documentation's copyright
line: 2018, ArviZ devs). Taken from release 0.23, the last before ArviZ 1.0
moved its statistics, and their Numba paths, to arviz-stats."""
import typing

import numpy as np

import postc
from postyp import Float64, Int64


# stats_variance_1d: arviz-devs/arviz, arviz/stats/stats_utils.py @ 1c4dba3fc695b254af301f9ffba00a220ccfa1ca
#   function `stats_variance_1d`; licence Apache-2.0; Copyright 2018 ArviZ devs (its licence file names no copyright holder; the documentation's: "2018, ArviZ devs")
#   changed: type annotations added; the decorator @conditional_jit(nopython=True) (numba.jit(nopython=True) where Numba is installed) removed
#   original signature: def stats_variance_1d(data, ddof=0):
def stats_variance_1d(data: Float64[:], ddof: Int64 = 0) -> Float64:
    a_a, b_b = 0, 0
    for i in data:
        a_a = a_a + i
        b_b = b_b + i * i
    var = b_b / (len(data)) - ((a_a / (len(data))) ** 2)
    var = var * (len(data) / (len(data) - ddof))
    return var


# _angle: arviz-devs/arviz, arviz/stats/stats_utils.py @ 1c4dba3fc695b254af301f9ffba00a220ccfa1ca
#   function `_angle`; licence Apache-2.0; Copyright 2018 ArviZ devs (its licence file names no copyright holder; the documentation's: "2018, ArviZ devs")
#   changed: type annotations added; @conditional_vect (numba.vectorize() where Numba is installed) replaced by @postc.ufunc
#   original signature: def _angle(samples, low, high, p_i=np.pi):
@postc.ufunc
def _angle(samples: Float64, low: Float64, high: Float64, p_i: Float64 = np.pi) -> Float64:
    ang = (samples - low) * 2.0 * p_i / (high - low)
    return ang


# histogram: arviz-devs/arviz, arviz/stats/density_utils.py @ 1c4dba3fc695b254af301f9ffba00a220ccfa1ca
#   function `histogram`; licence Apache-2.0; Copyright 2018 ArviZ devs (its licence file names no copyright holder; the documentation's: "2018, ArviZ devs")
#   changed: type annotations added (a tuple result: unannotated); the decorator @conditional_jit(cache=True, nopython=True) (numba.jit where Numba is installed) removed
#   original signature: def histogram(data, bins, range_hist=None):
def histogram(data: Float64[:], bins: Float64[:], range_hist: typing.Optional[tuple[Float64, Float64]] = None):
    """Conditionally jitted histogram.

    Parameters
    ----------
    data : array-like
        Input data. Passed as first positional argument to ``np.histogram``.
    bins : int or array-like
        Passed as keyword argument ``bins`` to ``np.histogram``.
    range_hist : (float, float), optional
        Passed as keyword argument ``range`` to ``np.histogram``.

    Returns
    -------
    hist : array
        The number of counts per bin.
    density : array
        The density corresponding to each bin.
    bin_edges : array
        The edges of the bins used.
    """
    hist, bin_edges = np.histogram(data, bins=bins, range=range_hist)
    hist_dens = hist / (hist.sum() * np.diff(bin_edges))
    return hist, hist_dens, bin_edges


# _cov_1d: arviz-devs/arviz, arviz/utils.py @ 1c4dba3fc695b254af301f9ffba00a220ccfa1ca
#   function `_cov_1d`; licence Apache-2.0; Copyright 2018 ArviZ devs (its licence file names no copyright holder; the documentation's: "2018, ArviZ devs")
#   changed: type annotations added; the decorator @conditional_jit(cache=True, nopython=True) (numba.jit where Numba is installed) removed
#   original signature: def _cov_1d(x):
def _cov_1d(x: Float64[:]) -> Float64:
    x = x - x.mean()
    ddof = x.shape[0] - 1
    return np.dot(x.T, x.conj()) / ddof


# ---------------------------------------------------------------------------
# Call recipes, shaped as ArviZ calls the kernels: one chain's draws with
# `ddof=1` for `stats_variance_1d` (as `stats_variance_2d` calls it per row);
# circular draws mapped to angles as `_circfunc` calls `_angle(samples, low,
# high, np.pi)`; draws with the bin edges `get_bins` gives for `histogram`
# (`histogram(row, bins=bin_ary)`, as the rank plot calls it); and one
# variable's draws for `_cov_1d` (as `_cov` calls it on 1-D data). From fixed
# seeds.

def _draws(seed, n=500):
    return np.random.default_rng(seed).normal(0.3, 1.2, n)


def args_stats_variance_1d():
    return (_draws(1), 1)


def args__angle():
    samples = np.random.default_rng(2).uniform(-1.0, 7.0, 200)
    return (samples, 0.0, 2 * np.pi, np.pi)


def args_histogram():
    data = _draws(3)
    return (data, np.linspace(data.min(), data.max(), 21))


def args__cov_1d():
    return (_draws(4),)
