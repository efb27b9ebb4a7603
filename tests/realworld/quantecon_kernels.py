"""Kernels of QuantEcon.py (https://github.com/QuantEcon/QuantEcon.py), MIT licence,
Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski."""
import math

import numpy as np

import postc
from postyp import Bool, Float64, Int64, Out

prange = range  # the original imports numba's prange; CPython runs it as range


# sa_indices: QuantEcon/QuantEcon.py, quantecon/markov/utilities.py @ 13b436b8a43aa53313f6523509bd3f7a35d9dfd2
#   function `sa_indices`; licence MIT; Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski (MIT licence)
#   changed: type annotations added; Numba decorator removed; no return annotation (it returns a tuple, which postyp cannot spell)
#   original signature: def sa_indices(num_states, num_actions):
def sa_indices(num_states: Int64, num_actions: Int64):
    """
    Generate `s_indices` and `a_indices` for `DiscreteDP`, for the case
    where all the actions are feasible at every state.

    Parameters
    ----------
    num_states : scalar(int)
        Number of states.

    num_actions : scalar(int)
        Number of actions.

    Returns
    -------
    s_indices : ndarray(int, ndim=1)
        Array containing the state indices.

    a_indices : ndarray(int, ndim=1)
        Array containing the action indices.

    Examples
    --------
    >>> s_indices, a_indices = qe.markov.sa_indices(4, 3)
    >>> s_indices
    array([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3])
    >>> a_indices
    array([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2])

    """
    L = num_states * num_actions
    dtype = np.int_
    s_indices = np.empty(L, dtype=dtype)
    a_indices = np.empty(L, dtype=dtype)

    i = 0
    for s in range(num_states):
        for a in range(num_actions):
            s_indices[i] = s
            a_indices[i] = a
            i += 1

    return s_indices, a_indices


# _s_wise_max_argmax: QuantEcon/QuantEcon.py, quantecon/markov/utilities.py @ 13b436b8a43aa53313f6523509bd3f7a35d9dfd2
#   function `_s_wise_max_argmax`; licence MIT; Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski (MIT licence)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _s_wise_max_argmax(a_indices, a_indptr, vals, out_max, out_argmax):
def _s_wise_max_argmax(a_indices: Int64[:], a_indptr: Int64[:], vals: Float64[:],
                       out_max: Out[Float64[:]], out_argmax: Out[Int64[:]]) -> None:
    n = len(out_max)
    for i in range(n):
        if a_indptr[i] != a_indptr[i+1]:
            m = a_indptr[i]
            for j in range(a_indptr[i]+1, a_indptr[i+1]):
                if vals[j] > vals[m]:
                    m = j
            out_max[i] = vals[m]
            out_argmax[i] = a_indices[m]


# _s_wise_max: QuantEcon/QuantEcon.py, quantecon/markov/utilities.py @ 13b436b8a43aa53313f6523509bd3f7a35d9dfd2
#   function `_s_wise_max`; licence MIT; Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski (MIT licence)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _s_wise_max(a_indices, a_indptr, vals, out_max):
def _s_wise_max(a_indices: Int64[:], a_indptr: Int64[:], vals: Float64[:], out_max: Out[Float64[:]]) -> None:
    n = len(out_max)
    for i in range(n):
        if a_indptr[i] != a_indptr[i+1]:
            m = a_indptr[i]
            for j in range(a_indptr[i]+1, a_indptr[i+1]):
                if vals[j] > vals[m]:
                    m = j
            out_max[i] = vals[m]


# _find_indices: QuantEcon/QuantEcon.py, quantecon/markov/utilities.py @ 13b436b8a43aa53313f6523509bd3f7a35d9dfd2
#   function `_find_indices`; licence MIT; Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski (MIT licence)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _find_indices(a_indices, a_indptr, sigma, out):
def _find_indices(a_indices: Int64[:], a_indptr: Int64[:], sigma: Int64[:], out: Out[Int64[:]]) -> None:
    n = len(sigma)
    for i in range(n):
        for j in range(a_indptr[i], a_indptr[i+1]):
            if sigma[i] == a_indices[j]:
                out[i] = j


# _has_sorted_sa_indices: QuantEcon/QuantEcon.py, quantecon/markov/utilities.py @ 13b436b8a43aa53313f6523509bd3f7a35d9dfd2
#   function `_has_sorted_sa_indices`; licence MIT; Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski (MIT licence)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _has_sorted_sa_indices(s_indices, a_indices):
def _has_sorted_sa_indices(s_indices: Int64[:], a_indices: Int64[:]) -> Bool:
    """
    Check whether `s_indices` and `a_indices` are sorted in
    lexicographic order.

    Parameters
    ----------
    s_indices, a_indices : ndarray(ndim=1)

    Returns
    -------
    bool
        Whether `s_indices` and `a_indices` are sorted.

    """
    L = len(s_indices)
    for i in range(L-1):
        if s_indices[i] > s_indices[i+1]:
            return False
        if s_indices[i] == s_indices[i+1]:
            if a_indices[i] >= a_indices[i+1]:
                return False
    return True


# _generate_a_indptr: QuantEcon/QuantEcon.py, quantecon/markov/utilities.py @ 13b436b8a43aa53313f6523509bd3f7a35d9dfd2
#   function `_generate_a_indptr`; licence MIT; Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski (MIT licence)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _generate_a_indptr(num_states, s_indices, out):
def _generate_a_indptr(num_states: Int64, s_indices: Int64[:], out: Out[Int64[:]]) -> None:
    """
    Generate `a_indptr`; stored in `out`. `s_indices` is assumed to be
    in sorted order.

    Parameters
    ----------
    num_states : scalar(int)

    s_indices : ndarray(int, ndim=1)

    out : ndarray(int, ndim=1)
        Length must be num_states+1.

    """
    L = len(s_indices)
    idx = 0
    out[0] = 0
    for s in range(num_states-1):
        # bound idx: the last states may have no state-action pair
        while idx < L and s_indices[idx] == s:
            idx += 1
        out[s+1] = idx
    out[num_states] = L


# _gth_solve_jit: QuantEcon/QuantEcon.py, quantecon/markov/gth_solve.py @ 13b436b8a43aa53313f6523509bd3f7a35d9dfd2
#   function `_gth_solve_jit`; licence MIT; Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski (MIT licence)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _gth_solve_jit(A, out):
def _gth_solve_jit(A: Out[Float64[:, :]], out: Out[Float64[:]]) -> None:
    """
    JIT complied version of the main routine of gth_solve.

    Parameters
    ----------
    A : numpy.ndarray(float, ndim=2)
        Stochastic matrix or generator matrix. Must be of shape n x n.
        Data will be overwritten.

    out : numpy.ndarray(float, ndim=1)
        Output array in which to place the stationary distribution of A.

    """
    n = A.shape[0]

    # === Reduction === #
    for k in range(n-1):
        scale = np.sum(A[k, k+1:n])
        if scale <= 0:
            # There is one (and only one) recurrent class contained in
            # {0, ..., k};
            # compute the solution associated with that recurrent class.
            n = k+1
            break
        for i in range(k+1, n):
            A[i, k] /= scale

            for j in range(k+1, n):
                A[i, j] += A[i, k] * A[k, j]

    # === Backward substitution === #
    out[n-1] = 1
    for k in range(n-2, -1, -1):
        for i in range(k+1, n):
            out[k] += out[i] * A[i, k]

    # === Normalization === #
    norm = np.sum(out)
    for k in range(n):
        out[k] /= norm


# _generate_sample_paths: QuantEcon/QuantEcon.py, quantecon/markov/core.py @ 13b436b8a43aa53313f6523509bd3f7a35d9dfd2
#   function `_generate_sample_paths`; licence MIT; Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski (MIT licence)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _generate_sample_paths(P_cdfs, init_states, random_values, out):
def _generate_sample_paths(P_cdfs: Float64[:, :], init_states: Int64[:], random_values: Float64[:, :],
                           out: Out[Int64[:, :]]) -> None:
    """
    Generate num_reps sample paths of length ts_length, where num_reps =
    out.shape[0] and ts_length = out.shape[1].

    Parameters
    ----------
    P_cdfs : ndarray(float, ndim=2)
        Array containing as rows the CDFs of the state transition.

    init_states : array_like(int, ndim=1)
        Array containing the initial states. Its length must be equal to
        num_reps.

    random_values : ndarray(float, ndim=2)
        Array containing random values from [0, 1). Its shape must be
        equal to (num_reps, ts_length-1)

    out : ndarray(int, ndim=2)
        Array to store the sample paths.

    Notes
    -----
    This routine is jit-complied by Numba.

    """
    num_reps, ts_length = out.shape
    n = P_cdfs.shape[0]

    for i in range(num_reps):
        out[i, 0] = init_states[i]
        for t in range(ts_length-1):
            k = np.searchsorted(P_cdfs[out[i, t]], random_values[i, t],
                                side='right')
            if k == n:
                # random value beyond the last CDF value due to rounding:
                # fall back to the last state with positive probability,
                # i.e., the first position attaining the final CDF value
                k = np.searchsorted(P_cdfs[out[i, t]],
                                    P_cdfs[out[i, t], n-1], side='left')
            out[i, t+1] = k


# _repeat_1d: QuantEcon/QuantEcon.py, quantecon/_gridtools.py @ 13b436b8a43aa53313f6523509bd3f7a35d9dfd2
#   function `_repeat_1d`; licence MIT; Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski (MIT licence)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _repeat_1d(x, K, out):
def _repeat_1d(x: Float64[:], K: Int64, out: Out[Float64[:]]) -> None:
    '''
    Repeats each element of a vector many times and repeats the whole
    result many times

    Parameters
    ----------
    x : ndarray(ndim=1)
        vector to be repeated

    K : scalar(int)
        number of times each element of x is repeated (inner iterations)

    out : ndarray(ndim=1)
        placeholder for the result

    Returns
    -------
    None
    '''

    N = x.shape[0]
    L = out.shape[0] // (K*N)  # number of outer iterations
    # K                        # number of inner iterations

    # the result out should enumerate in C-order the elements
    # of a 3-dimensional array T of dimensions (K,N,L)
    # such that for all k,n,l, we have T[k,n,l] == x[n]

    for n in range(N):
        val = x[n]
        for k in range(K):
            for l in range(L):
                ind = k*N*L + n*L + l
                out[ind] = val


# _cartesian_index: QuantEcon/QuantEcon.py, quantecon/_gridtools.py @ 13b436b8a43aa53313f6523509bd3f7a35d9dfd2
#   function `_cartesian_index`; licence MIT; Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski (MIT licence)
#   changed: type annotations added; Numba decorator removed
#   original signature: def _cartesian_index(indices, nums_grids):
def _cartesian_index(indices: Int64[:], nums_grids: Int64[:]) -> Int64:
    n = len(indices)
    idx = 0
    de_cumprod = 1
    for i in range(1, n+1):
        idx += de_cumprod * indices[n-i]
        de_cumprod *= nums_grids[n-i]
    return idx


# lorenz_curve: QuantEcon/QuantEcon.py, quantecon/_inequality.py @ 13b436b8a43aa53313f6523509bd3f7a35d9dfd2
#   function `lorenz_curve`; licence MIT; Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski (MIT licence)
#   changed: type annotations added; Numba decorator removed; no return annotation (it returns a tuple, which postyp cannot spell)
#   original signature: def lorenz_curve(y):
def lorenz_curve(y: Float64[:]):
    """
    Calculates the Lorenz Curve, a graphical representation of
    the distribution of income or wealth.

    It returns the cumulative share of people (x-axis) and
    the cumulative share of income earned.

    Parameters
    ----------
    y : array_like(float or int, ndim=1)
        Array of income/wealth for each individual.
        Unordered or ordered is fine.

    Returns
    -------
    cum_people : array_like(float, ndim=1)
        Cumulative share of people for each person index (i/n)
    cum_income : array_like(float, ndim=1)
        Cumulative share of income for each person index


    References
    ----------
    .. [1] https://en.wikipedia.org/wiki/Lorenz_curve

    Examples
    --------
    >>> a_val, n = 3, 10_000
    >>> y = np.random.pareto(a_val, size=n)
    >>> f_vals, l_vals = lorenz(y)

    """

    n = len(y)
    y = np.sort(y)
    s = np.zeros(n + 1)
    s[1:] = np.cumsum(y)
    cum_people = np.zeros(n + 1)
    cum_income = np.zeros(n + 1)
    for i in range(1, n + 1):
        cum_people[i] = i / n
        cum_income[i] = s[i] / s[n]
    return cum_people, cum_income


# gini_coefficient: QuantEcon/QuantEcon.py, quantecon/_inequality.py @ 13b436b8a43aa53313f6523509bd3f7a35d9dfd2
#   function `gini_coefficient`; licence MIT; Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski (MIT licence)
#   changed: type annotations added; Numba decorator removed (it was @njit(parallel=True))
#   original signature: def gini_coefficient(y):
def gini_coefficient(y: Float64[:]) -> Float64:
    r"""
    Implements the Gini inequality index

    Parameters
    ----------
    y : array_like(float)
        Array of income/wealth for each individual.
        Ordered or unordered is fine

    Returns
    -------
    Gini index: float
        The gini index describing the inequality of the array of income/wealth

    References
    ----------

    https://en.wikipedia.org/wiki/Gini_coefficient
    """
    n = len(y)
    i_sum = np.zeros(n)
    for i in prange(n):
        for j in range(n):
            i_sum[i] += abs(y[i] - y[j])
    return np.sum(i_sum) / (2 * n * np.sum(y))


# gammaln: QuantEcon/QuantEcon.py, quantecon/quad.py @ 13b436b8a43aa53313f6523509bd3f7a35d9dfd2
#   function `gammaln`; licence MIT; Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski (MIT licence)
#   changed: type annotations added; @vectorize(nopython=True) replaced by @postc.ufunc
#   original signature: def gammaln(x):
@postc.ufunc
def gammaln(x: Float64) -> Float64:
    """
    Natural logarithm of the gamma function.
    
    Parameters
    ----------
    x : float
        Input value.
        
    Returns
    -------
    float
        Natural logarithm of gamma(x).
    """
    return math.lgamma(x)


# fix: QuantEcon/QuantEcon.py, quantecon/quad.py @ 13b436b8a43aa53313f6523509bd3f7a35d9dfd2
#   function `fix`; licence MIT; Copyright (c) 2013-2025 Thomas J. Sargent and John Stachurski (MIT licence)
#   changed: type annotations added; @vectorize(nopython=True) replaced by @postc.ufunc
#   original signature: def fix(x):
@postc.ufunc
def fix(x: Float64) -> Float64:
    """
    Round towards zero.
    
    Parameters
    ----------
    x : float
        Input value.
        
    Returns
    -------
    float
        Rounded value towards zero.
    """
    if x < 0:
        return math.ceil(x)
    else:
        return math.floor(x)


# ---- call recipes (not part of the kernels) ----

def _ddp():
    # a DiscreteDP in state-action-pair form: 5 states, 1-3 feasible actions each
    rng = np.random.default_rng(0)
    counts = np.array([2, 3, 1, 3, 2])
    s_indices = np.repeat(np.arange(5), counts).astype(np.int64)
    a_indices = np.concatenate([np.arange(c) for c in counts]).astype(np.int64)
    a_indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    vals = rng.standard_normal(len(s_indices))
    return s_indices, a_indices, a_indptr, vals

def args_sa_indices():
    return (4, 3)

def args__s_wise_max_argmax():
    s, a, ptr, vals = _ddp()
    return (a, ptr, vals, np.zeros(5), np.zeros(5, np.int64))

def args__s_wise_max():
    s, a, ptr, vals = _ddp()
    return (a, ptr, vals, np.zeros(5))

def args__find_indices():
    s, a, ptr, vals = _ddp()
    return (a, ptr, np.array([1, 2, 0, 1, 0], np.int64), np.zeros(5, np.int64))

def args__has_sorted_sa_indices():
    s, a, ptr, vals = _ddp()
    return (s, a)

def args__generate_a_indptr():
    s, a, ptr, vals = _ddp()
    return (5, s, np.zeros(6, np.int64))

def args__gth_solve_jit():
    rng = np.random.default_rng(1)
    P = rng.random((6, 6))
    P /= P.sum(axis=1, keepdims=True)
    return (P, np.zeros(6))

def args__generate_sample_paths():
    rng = np.random.default_rng(2)
    P = np.array([[0.4, 0.6, 0.0], [0.2, 0.5, 0.3], [0.0, 0.1, 0.9]])
    return (np.cumsum(P, axis=-1), np.array([0, 1, 2, 0], np.int64), rng.random((4, 9)),
            np.zeros((4, 10), np.int64))

def args__repeat_1d():
    return (np.array([1.0, 2.0, 3.0]), 2, np.zeros(3 * 2 * 4))

def args__cartesian_index():
    return (np.array([1, 2, 0], np.int64), np.array([3, 4, 2], np.int64))

def args_lorenz_curve():
    return (np.random.default_rng(3).pareto(3.0, size=1000),)

def args_gini_coefficient():
    return (np.random.default_rng(4).lognormal(size=500),)

def args_gammaln():
    return (np.linspace(0.5, 20.0, 40),)

def args_fix():
    return (np.linspace(-3.7, 3.7, 25),)
