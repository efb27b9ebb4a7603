"""Kernels of PyOD (https://github.com/yzhao062/pyod), BSD 2-Clause licence,
Copyright (c) 2018, Yue Zhao."""
import numpy as np

from postyp import Float64

prange = range  # the original imports numba's prange; CPython runs it as range


# _wcos: yzhao062/pyod, pyod/models/abod.py @ 34f7996effac700a5166d882d5e94c6e6078fae3
#   function `_wcos`; licence BSD-2-Clause; Copyright (c) 2018, Yue Zhao (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _wcos(curr_pt, a, b):  # pragma: no cover
def _wcos(curr_pt: Float64[:], a: Float64[:], b: Float64[:]) -> Float64:
    """Internal function to calculate weighted cosine using optimized
    numba code.

    Parameters
    ----------
    curr_pt : numpy array of shape (n_samples, n_features)
        Current sample to be calculated.

    a : numpy array of shape (n_samples, n_features)
        Training sample a.

    b : numpy array of shape (n_samples, n_features)
        Training sample b.

    Returns
    -------
    wcos : float in range [-1, 1]
        Cosine similarity between a-curr_pt and b-curr_pt.

    """

    a_curr = a - curr_pt
    b_curr = b - curr_pt

    # wcos = (<a_curr, b_curr>/((|a_curr|*|b_curr|)^2)
    wcos = np.dot(a_curr, b_curr) / (
            np.linalg.norm(a_curr, 2) ** 2) / (
                   np.linalg.norm(b_curr, 2) ** 2)
    return wcos


# _aad: yzhao062/pyod, pyod/models/lmdd.py @ 34f7996effac700a5166d882d5e94c6e6078fae3
#   function `_aad`; licence BSD-2-Clause; Copyright (c) 2018, Yue Zhao (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _aad(X):
def _aad(X: Float64[:]) -> Float64:
    """Internal Function to Calculate Average Absolute Deviation
    (a.k.a Mean Absolute Deviation)
    """
    return np.mean(np.absolute(X - np.mean(X)))


# _wrap_around_discrepancy: yzhao062/pyod, pyod/models/qmcd.py @ 34f7996effac700a5166d882d5e94c6e6078fae3
#   function `_wrap_around_discrepancy`; licence BSD-2-Clause; Copyright (c) 2018, Yue Zhao (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed (it was @njit(fastmath=True, parallel=True))
#   original signature: def _wrap_around_discrepancy(data, check):
def _wrap_around_discrepancy(data: Float64[:, :], check: Float64[:, :]) -> Float64[:]:
    """Wrap-around Quasi-Monte Carlo discrepancy method"""

    n = data.shape[0]
    d = data.shape[1]
    p = check.shape[0]

    disc = np.zeros(p)

    for i in prange(p):
        dc = 0.0
        for j in prange(n):
            prod = 1.0
            for k in prange(d):
                x_kikj = abs(check[i, k] - data[j, k])
                prod *= 3.0 / 2.0 - x_kikj + x_kikj ** 2

            dc += prod
        disc[i] = dc

    return - (4.0 / 3.0) ** d + 1.0 / (n ** 2) * disc


# _pairwise_distances_no_broadcast_helper: yzhao062/pyod, pyod/utils/stat_models.py @ 34f7996effac700a5166d882d5e94c6e6078fae3
#   function `_pairwise_distances_no_broadcast_helper`; licence BSD-2-Clause; Copyright (c) 2018, Yue Zhao (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _pairwise_distances_no_broadcast_helper(X, Y):  # pragma: no cover
def _pairwise_distances_no_broadcast_helper(X: Float64[:, :], Y: Float64[:, :]) -> Float64[:]:
    """Internal function for calculating the distance with numba. Do not use.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
        First input samples

    Y : array of shape (n_samples, n_features)
        Second input samples

    Returns
    -------
    distance : array of shape (n_samples,)
        Intermediate results. Do not use.

    """
    euclidean_sq = np.square(Y - X)
    return np.sqrt(np.sum(euclidean_sq, axis=1)).ravel()


# _get_perplexity: yzhao062/pyod, pyod/models/sos.py @ 34f7996effac700a5166d882d5e94c6e6078fae3
#   function `_get_perplexity`; licence BSD-2-Clause; Copyright (c) 2018, Yue Zhao (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed; no return annotation (it returns a tuple, which postyp cannot spell)
#   original signature: def _get_perplexity(D, beta):
def _get_perplexity(D: Float64[:], beta: Float64):
    """Compute the perplexity and the A-row for a specific value of the
    precision of a Gaussian distribution.

    Parameters
    ----------
    D : array, shape (n_samples, )
        The dissimilarity matrix of the training samples.
    """

    # `A` is the direct ndarray output of `np.exp`, so call the ndarray
    # method instead of `np.sum`. The method bypasses numpy's
    # __array_function__ dispatch and is measurably faster on the small
    # rows this function is called on (one row of the affinity matrix per
    # sample); the same applies to `(D * A).sum()` below. See issue #635.
    A = np.exp(-D * beta)
    sumA = A.sum()
    H = np.log(sumA) + beta * (D * A).sum() / sumA
    return H, A


# ---- call recipes (not part of the kernels) ----

def args__wcos():
    rng = np.random.default_rng(0)
    return (rng.random(5), rng.random(5), rng.random(5))

def args__aad():
    return (np.random.default_rng(1).standard_normal(100),)

def args__wrap_around_discrepancy():
    rng = np.random.default_rng(2)
    X = rng.random((50, 4))
    return (X, X)

def args__pairwise_distances_no_broadcast_helper():
    rng = np.random.default_rng(3)
    return (rng.random((40, 6)), rng.random((40, 6)))

def args__get_perplexity():
    return (np.random.default_rng(4).random(30), 1.5)
