"""Kernels of STUMPY (https://github.com/TDAmeritrade/stumpy), BSD 3-Clause licence,
Copyright 2019 TD Ameritrade."""
import numpy as np

from postyp import Bool, Float64, Int64


# _sliding_dot_product: TDAmeritrade/stumpy, stumpy/core.py @ 423c679fdfcdd547744d2b9a2aed7565124fd6e1
#   function `_sliding_dot_product`; licence BSD-3-Clause; Copyright 2019 TD Ameritrade (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _sliding_dot_product(Q, T):
def _sliding_dot_product(Q: Float64[:], T: Float64[:]) -> Float64[:]:
    """
    A Numba JIT-compiled implementation of the sliding window dot product.

    Parameters
    ----------
    Q : numpy.ndarray
        Query array or subsequence

    T : numpy.ndarray
        Time series or sequence

    Returns
    -------
    out : numpy.ndarray
        Sliding dot product between `Q` and `T`.
    """
    m = Q.shape[0]
    l = T.shape[0] - m + 1
    out = np.empty(l)
    for i in range(l):
        out[i] = np.dot(Q, T[i : i + m])

    return out


# _welford_nanvar: TDAmeritrade/stumpy, stumpy/core.py @ 423c679fdfcdd547744d2b9a2aed7565124fd6e1
#   function `_welford_nanvar`; licence BSD-3-Clause; Copyright 2019 TD Ameritrade (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed (its signature "f8[:](f8[:], i8, b1[:])" spelled as postyp types)
#   original signature: def _welford_nanvar(a, w, a_subseq_isfinite):
def _welford_nanvar(a: Float64[:], w: Int64, a_subseq_isfinite: Bool[:]) -> Float64[:]:
    """
    Compute the rolling variance for a 1-D array while ignoring NaNs using a modified
    version of Welford's algorithm but is much faster than using `np.nanstd` with stride
    tricks.

    Parameters
    ----------
    a : numpy.ndarray
        The input array

    w : int
        The rolling window size

    a_subseq_isfinite : numpy.ndarray
        A boolean array that describes whether each subequence of length `w` within `a`
        is finite.

    Returns
    -------
    all_variances : numpy.ndarray
        Rolling window nanvar
    """
    all_variances = np.empty(a.shape[0] - w + 1, dtype=np.float64)
    prev_mean = 0.0
    prev_var = 0.0

    for start_idx in range(a.shape[0] - w + 1):
        prev_start_idx = start_idx - 1
        stop_idx = start_idx + w  # Exclusive index value
        last_idx = start_idx + w - 1  # Last inclusive index value

        if (
            start_idx == 0
            or not a_subseq_isfinite[prev_start_idx]
            or not a_subseq_isfinite[start_idx]
        ):
            curr_mean = np.nanmean(a[start_idx:stop_idx])
            curr_var = np.nanvar(a[start_idx:stop_idx])
        else:
            curr_mean = prev_mean + (a[last_idx] - a[prev_start_idx]) / w
            curr_var = (
                prev_var
                + (a[last_idx] - a[prev_start_idx])
                * (a[last_idx] - curr_mean + a[prev_start_idx] - prev_mean)
                / w
            )

        all_variances[start_idx] = curr_var

        prev_mean = curr_mean
        prev_var = curr_var

    return all_variances


# _p_norm_distance_profile: TDAmeritrade/stumpy, stumpy/core.py @ 423c679fdfcdd547744d2b9a2aed7565124fd6e1
#   function `_p_norm_distance_profile`; licence BSD-3-Clause; Copyright 2019 TD Ameritrade (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _p_norm_distance_profile(Q, T, p=2.0):
def _p_norm_distance_profile(Q: Float64[:], T: Float64[:], p: Float64 = 2.0) -> Float64[:]:
    """
    A Numba JIT-compiled and parallelized function for computing the p-normalized
    distance profile

    Parameters
    ----------
    Q : numpy.ndarray
        Query array or subsequence

    T : numpy.ndarray
        Time series or sequence

    p : float, default 2.0
        The p-norm to apply for computing the Minkowski distance.

    Returns
    -------
    output : numpy.ndarray
        p-normalized distance profile between `Q` and `T`

    Notes
    -----
    The special case `p==inf` is not supported.
    """
    m = Q.shape[0]
    l = T.shape[0] - m + 1
    p_norm_profile = np.empty(l, dtype=np.float64)

    if p == 2.0:
        Q_squared = np.sum(Q * Q)
        T_squared = np.empty(l, dtype=np.float64)
        T_squared[0] = np.sum(T[:m] * T[:m])
        for i in range(1, l):
            T_squared[i] = (
                T_squared[i - 1] - T[i - 1] * T[i - 1] + T[i + m - 1] * T[i + m - 1]
            )
        QT = _sliding_dot_product(Q, T)
        for i in range(l):
            p_norm_profile[i] = Q_squared + T_squared[i] - 2.0 * QT[i]
    else:
        for i in range(l):
            p_norm_profile[i] = np.sum(np.power(np.abs(Q - T[i : i + m]), p))

    return p_norm_profile


# _count_diagonal_ndist: TDAmeritrade/stumpy, stumpy/core.py @ 423c679fdfcdd547744d2b9a2aed7565124fd6e1
#   function `_count_diagonal_ndist`; licence BSD-3-Clause; Copyright 2019 TD Ameritrade (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed (its signature "i8[:](i8[:], i8, i8, i8)" spelled as postyp types)
#   original signature: def _count_diagonal_ndist(diags, m, n_A, n_B):
def _count_diagonal_ndist(diags: Int64[:], m: Int64, n_A: Int64, n_B: Int64) -> Int64[:]:
    """
    Count the number of distances that would be computed for each diagonal index
    referenced in `diags`

    Parameters
    ----------
    diags : numpy.ndarray
        The diagonal indices of interest

    m : int
        Window size

    n_A : int
        The length of time series `T_A`

    n_B : int
        The length of time series `T_B`

    Returns
    -------
    diag_ndist_counts : numpy.ndarray
        Counts of distances computed along each diagonal of interest
    """
    diag_ndist_counts = np.zeros(diags.shape[0], dtype=np.int64)
    for diag_idx in range(diags.shape[0]):
        k = diags[diag_idx]
        if k >= 0:
            diag_ndist_counts[diag_idx] = min(n_B - m + 1 - k, n_A - m + 1)
        else:
            diag_ndist_counts[diag_idx] = min(n_B - m + 1, n_A - m + 1 + k)

    return diag_ndist_counts


# ---- call recipes (not part of the kernels) ----

def args__sliding_dot_product():
    rng = np.random.default_rng(0)
    return (rng.standard_normal(8), rng.standard_normal(64))

def args__welford_nanvar():
    rng = np.random.default_rng(1)
    a = rng.standard_normal(64)
    w = 8
    isfinite = np.ones(64 - w + 1, dtype=np.bool_)
    return (a, w, isfinite)

def args__p_norm_distance_profile():
    rng = np.random.default_rng(2)
    return (rng.standard_normal(8), rng.standard_normal(64), 2.0)

def args__count_diagonal_ndist():
    return (np.arange(-5, 6, dtype=np.int64), 4, 30, 40)
