"""Kernels of tslearn (https://github.com/tslearn-team/tslearn), BSD 2-Clause licence,
Copyright (c) 2017, Romain Tavenard."""
import numpy
import numpy as np

from postyp import Bool, Float64, Int64, Out

DBL_MAX = np.finfo("double").max  # as tslearn/metrics/soft_dtw_fast.py defines it


# _njit_local_squared_dist: tslearn-team/tslearn, tslearn/metrics/dtw_variants.py @ 46586963d332c908ca4a4dc9457e231bb275e703
#   function `_njit_local_squared_dist`; licence BSD-2-Clause; Copyright (c) 2017, Romain Tavenard (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _njit_local_squared_dist(x, y):
def _njit_local_squared_dist(x: Float64[:], y: Float64[:]) -> Float64:
    """Compute the squared distance between two vectors.

    Parameters
    ----------
    x : array-like, shape=(d,)
        A vector.
    y : array-like, shape=(d,)
        Another vector.

    Returns
    -------
    dist : float
        Squared distance between x and y.
    """
    dist = 0.0
    for di in range(x.shape[0]):
        diff = x[di] - y[di]
        dist += diff * diff
    return dist


# _njit_acc_matrix_from_dist_matrix: tslearn-team/tslearn, tslearn/metrics/_dtw.py @ 46586963d332c908ca4a4dc9457e231bb275e703
#   function `_njit_acc_matrix_from_dist_matrix`; licence BSD-2-Clause; Copyright (c) 2017, Romain Tavenard (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _njit_acc_matrix_from_dist_matrix(D, mask):
def _njit_acc_matrix_from_dist_matrix(D: Float64[:, :], mask: Bool[:, :]) -> Float64[:, :]:
    l1, l2 = D.shape
    cum_sum = numpy.full((l1 + 1, l2 + 1), numpy.inf)
    cum_sum[0, 0] = 0.0

    for i in range(l1):
        for j in range(l2):
            if mask[i, j]:
                cum_sum[i + 1, j + 1] = D[i, j]
                cum_sum[i + 1, j + 1] += min(
                    cum_sum[i, j + 1],
                    cum_sum[i + 1, j],
                    cum_sum[i, j]
                )
    return cum_sum[1:, 1:]


# njit_lcss_accumulated_matrix_from_dist_matrix: tslearn-team/tslearn, tslearn/metrics/dtw_variants.py @ 46586963d332c908ca4a4dc9457e231bb275e703
#   function `njit_lcss_accumulated_matrix_from_dist_matrix`; licence BSD-2-Clause; Copyright (c) 2017, Romain Tavenard (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def njit_lcss_accumulated_matrix_from_dist_matrix(dist_matrix, eps, mask):
def njit_lcss_accumulated_matrix_from_dist_matrix(dist_matrix: Float64[:, :], eps: Float64, mask: Bool[:, :]) -> Int64[:, :]:
    """Compute the accumulated cost matrix score between two time series using
    a precomputed distance matrix.

    Parameters
    ----------
    dist_matrix : array-like, shape=(sz1, sz2)
        Array containing the pairwise distances.
    eps : float (default: 1.)
        Maximum matching distance threshold.
    mask : array-like, shape=(sz1, sz2)
        Mask. Unconsidered cells must have False values.

    Returns
    -------
    acc_cost_mat : array-like, shape=(sz1 + 1, sz2 + 1)
        Accumulated cost matrix.
    """
    l1, l2 = dist_matrix.shape
    acc_cost_mat = numpy.full((l1 + 1, l2 + 1), 0)

    for i in range(1, l1 + 1):
        for j in range(1, l2 + 1):
            if mask[i - 1, j - 1]:
                if dist_matrix[i - 1, j - 1] <= eps:
                    acc_cost_mat[i][j] = 1 + acc_cost_mat[i - 1][j - 1]
                else:
                    acc_cost_mat[i][j] = max(
                        acc_cost_mat[i][j - 1], acc_cost_mat[i - 1][j]
                    )

    return acc_cost_mat


# _njit_softmin3: tslearn-team/tslearn, tslearn/metrics/soft_dtw_fast.py @ 46586963d332c908ca4a4dc9457e231bb275e703
#   function `_njit_softmin3`; licence BSD-2-Clause; Copyright (c) 2017, Romain Tavenard (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _njit_softmin3(a, b, c, gamma):
def _njit_softmin3(a: Float64, b: Float64, c: Float64, gamma: Float64) -> Float64:
    r"""Compute softmin of 3 input variables with parameter gamma.

    In the limit case :math:`\gamma = 0`, the softmin operator reduces to
    a hard-min operator.

    Parameters
    ----------
    a : float64
        First input variable.
    b : float64
        Second input variable.
    c : float64
        Third input variable.
    gamma : float64
        Regularization parameter.

    Returns
    -------
    softmin_value : float64
        Softmin value.
    """
    a /= -gamma
    b /= -gamma
    c /= -gamma

    max_val = max(max(a, b), c)

    tmp = 0
    tmp += np.exp(a - max_val)
    tmp += np.exp(b - max_val)
    tmp += np.exp(c - max_val)
    softmin_value = -gamma * (np.log(tmp) + max_val)
    return softmin_value


# _njit_soft_dtw: tslearn-team/tslearn, tslearn/metrics/soft_dtw_fast.py @ 46586963d332c908ca4a4dc9457e231bb275e703
#   function `_njit_soft_dtw`; licence BSD-2-Clause; Copyright (c) 2017, Romain Tavenard (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _njit_soft_dtw(D, R, gamma):
def _njit_soft_dtw(D: Float64[:, :], R: Out[Float64[:, :]], gamma: Float64) -> None:
    """Compute soft dynamic time warping.

    Parameters
    ----------
    D : array-like, shape=(m, n), dtype=float64
    R : array-like, shape=(m+2, n+2), dtype=float64
    gamma : float64
        Regularization parameter.
    """
    m = D.shape[0]
    n = D.shape[1]

    # Initialization.
    R[: m + 1, 0] = DBL_MAX
    R[0, : n + 1] = DBL_MAX
    R[0, 0] = 0

    # DP recursion.
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            # D is indexed starting from 0.
            R[i, j] = D[i - 1, j - 1] + _njit_softmin3(
                R[i - 1, j], R[i - 1, j - 1], R[i, j - 1], gamma
            )


# ---- call recipes (not part of the kernels) ----

def _series(seed):
    rng = np.random.default_rng(seed)
    s1 = np.cumsum(rng.standard_normal(12))
    s2 = np.cumsum(rng.standard_normal(10))
    return (s1[:, None] - s2[None, :]) ** 2

def args__njit_local_squared_dist():
    rng = np.random.default_rng(0)
    return (rng.standard_normal(3), rng.standard_normal(3))

def args__njit_acc_matrix_from_dist_matrix():
    D = _series(1)
    return (D, np.ones(D.shape, dtype=np.bool_))

def args_njit_lcss_accumulated_matrix_from_dist_matrix():
    D = _series(2)
    return (D, 1.0, np.ones(D.shape, dtype=np.bool_))

def args__njit_softmin3():
    return (1.0, 2.5, 0.5, 0.1)

def args__njit_soft_dtw():
    D = _series(3)
    return (D, np.zeros((D.shape[0] + 2, D.shape[1] + 2)), 0.1)
