"""Kernels of cooltools (https://github.com/open2c/cooltools), MIT licence,
Copyright (c) 2017 Cooltools developers."""
import numpy as np

from postyp import Bool, Float64, Int64


# _logbins_numba: open2c/cooltools, cooltools/lib/numutils.py @ b1911f75b904d94a3d25a5c7083c543ad245baf0
#   function `_logbins_numba`; licence MIT; Copyright (c) 2017 Cooltools developers
#   changed: type annotations added; Numba decorator removed (it was @numba.njit)
#   original signature: def _logbins_numba(lo, hi, ratio=0, N=0, prepend_zero=False):
def _logbins_numba(lo: Int64, hi: Int64, ratio: Float64 = 0, N: Int64 = 0, prepend_zero: Bool = False) -> Int64[:]:
    """Make bins with edges evenly spaced in log-space.

    Parameters
    ----------
    lo, hi : int
        The span of the bins.
    ratio : float
        The target ratio between the upper and the lower edge of each bin.
        Either ratio or N must be specified.
    N : int
        The target number of bins. The resulting number of bins is not guaranteed.
        Either ratio or N must be specified.

    """
    lo = int(lo)
    hi = int(hi)
    if ratio != 0:
        if N != 0:
            raise ValueError("Please specify N or ratio")
        N = np.log(hi / lo) / np.log(ratio)
    elif N == 0:
        raise ValueError("Please specify N or ratio")
    data10 = 10 ** np.linspace(np.log10(lo), np.log10(hi), int(N))
    data10 = np.rint(data10)
    data10_int = np.sort(np.unique(data10)).astype(np.int_)
    assert data10_int[0] == lo
    assert data10_int[-1] == hi
    if prepend_zero:
        data10_int = np.concatenate((np.array([0]), data10_int))
    return data10_int


# observed_over_expected: open2c/cooltools, cooltools/lib/numutils.py @ b1911f75b904d94a3d25a5c7083c543ad245baf0
#   function `observed_over_expected`; licence MIT; Copyright (c) 2017 Cooltools developers
#   changed: type annotations added; Numba decorator removed (it was @numba.njit)
#   original signature: def observed_over_expected(matrix, mask=np.empty(shape=(0), dtype=np.bool_), dist_bin_edge_ratio=1.03):
def observed_over_expected(
    matrix: Float64[:, :], mask: Bool[:] = np.empty(shape=(0), dtype=np.bool_), dist_bin_edge_ratio: Float64 = 1.03
):
    """
    Normalize the contact matrix for distance-dependent contact decay.
    The diagonals of the matrix, corresponding to contacts between loci pairs
    with a fixed distance, are grouped into exponentially growing bins of
    distances; the diagonals from each bin are normalized by their average value.

    Parameters
    ----------
    matrix : np.ndarray
        A 2D symmetric matrix of contact frequencies.
    mask : np.ndarray
        A 1D or 2D mask of valid data.
        If 1D, it is interpreted as a mask of "good" bins.
        If 2D, it is interpreted as a mask of "good" pixels.
    dist_bin_edge_ratio : float
        The ratio of the largest and the shortest distance in each distance bin.

    Returns
    -------
    OE : np.ndarray
        The diagonal-normalized matrix of contact frequencies.
    dist_bins : np.ndarray
        The edges of the distance bins used to calculate average
        distance-dependent contact frequency.
    sum_pixels : np.ndarray
        The sum of contact frequencies in each distance bin.
    n_pixels : np.ndarray
        The total number of valid pixels in each distance bin.

    """
    N = matrix.shape[0]

    mask2d = np.empty(shape=(0, 0), dtype=np.bool_)
    if mask.ndim == 1:
        if mask.size > 0:
            mask2d = mask.reshape((1, -1)) * mask.reshape((-1, 1))
    elif mask.ndim == 2:
        # Numba expects mask to be a 1d array, so we need to hint
        # that it is now a 2d array
        mask2d = mask.reshape((int(np.sqrt(mask.size)), int(np.sqrt(mask.size))))
    else:
        raise ValueError("The mask must be either 1D or 2D.")

    data = np.copy(matrix).astype(np.float64)

    has_mask = mask2d.size > 0
    dist_bins = _logbins_numba(1, N, dist_bin_edge_ratio)
    dist_bins = np.concatenate((np.array([0]), dist_bins))
    n_pixels_arr = np.zeros_like(dist_bins[1:])
    sum_pixels_arr = np.zeros_like(dist_bins[1:], dtype=np.float64)

    bin_idx, n_pixels, sum_pixels = 0, 0, 0

    for bin_idx, lo, hi in zip(
        range(len(dist_bins) - 1), dist_bins[:-1], dist_bins[1:]
    ):
        sum_pixels = 0
        n_pixels = 0
        for offset in range(lo, hi):
            for j in range(0, N - offset):
                if not has_mask or mask2d[offset + j, j]:
                    sum_pixels += data[offset + j, j]
                    n_pixels += 1

        n_pixels_arr[bin_idx] = n_pixels
        sum_pixels_arr[bin_idx] = sum_pixels

        if n_pixels == 0:
            continue
        mean_pixel = sum_pixels / n_pixels
        if mean_pixel == 0:
            continue

        for offset in range(lo, hi):
            for j in range(0, N - offset):
                if not has_mask or mask2d[offset + j, j]:

                    data[offset + j, j] /= mean_pixel
                    if offset > 0:
                        data[j, offset + j] /= mean_pixel

    return data, dist_bins, sum_pixels_arr, n_pixels_arr


# iterative_correction_symmetric: open2c/cooltools, cooltools/lib/numutils.py @ b1911f75b904d94a3d25a5c7083c543ad245baf0
#   function `iterative_correction_symmetric`; licence MIT; Copyright (c) 2017 Cooltools developers
#   changed: type annotations added; Numba decorator removed (it was @numba.jit(nopython=True))
#   original signature: def iterative_correction_symmetric(x, max_iter=1000, ignore_diags=0, tol=1e-5, verbose=False):
def iterative_correction_symmetric(
    x: Float64[:, :], max_iter: Int64 = 1000, ignore_diags: Int64 = 0, tol: Float64 = 1e-5, verbose: Bool = False
):
    """The main method for correcting DS and SS read data.
    By default does iterative correction, but can perform an M-time correction

    Parameters
    ----------

    x : np.ndarray
        A symmetric matrix to correct.
    max_iter : int
        The maximal number of iterations to take.
    ignore_diags : int
        The number of diagonals to ignore during iterative correction.
    tol : float
        If less or equal to zero, will perform max_iter iterations.

    Returns
    -------
    _x : np.ndarray
        Corrected matrix
    totalBias : np.ndarray
        Vector with corrections biases
    report : (bool, int)
        A tuple that reports convergence
        status and used number of iterations
    """
    N = len(x)

    _x = x.copy()
    if ignore_diags > 0:
        for d in range(0, ignore_diags):
            for j in range(0, N - d):
                _x[j, j + d] = 0
                _x[j + d, j] = 0
    totalBias = np.ones(N, np.double)

    converged = False

    iternum = 0
    mask = np.sum(_x, axis=1) == 0
    for iternum in range(max_iter):
        s = np.sum(_x, axis=1)

        mask = s == 0

        s = s / np.mean(s[~mask])
        s[mask] = 1
        s -= 1
        s *= 0.8
        s += 1
        totalBias *= s

        for i in range(N):
            for j in range(N):
                _x[i, j] /= s[i] * s[j]

        crit = np.var(s)  # np.abs(s - 1).max()
        if verbose:
            print(crit)

        if (tol > 0) and (crit < tol):
            converged = True
            break

    corr = totalBias[~mask].mean()  # mean correction factor
    _x = _x * corr * corr  # renormalizing everything
    totalBias /= corr
    report = (converged, iternum)

    return _x, totalBias, report


# iterative_correction_asymmetric: open2c/cooltools, cooltools/lib/numutils.py @ b1911f75b904d94a3d25a5c7083c543ad245baf0
#   function `iterative_correction_asymmetric`; licence MIT; Copyright (c) 2017 Cooltools developers
#   changed: type annotations added; Numba decorator removed (it was @numba.jit(nopython=True))
#   original signature: def iterative_correction_asymmetric(x, max_iter=1000, tol=1e-5, verbose=False):
def iterative_correction_asymmetric(x: Float64[:, :], max_iter: Int64 = 1000, tol: Float64 = 1e-5, verbose: Bool = False):
    """Adapted from iterative_correction_symmetric

    Parameters
    ----------
    x : np.ndarray
        An asymmetric matrix to correct.
    max_iter : int
        The maximal number of iterations to take.
    ignore_diags : int
        The number of diagonals to ignore during iterative correction.
    tol : float
        If less or equal to zero, will perform max_iter iterations.

    Returns
    -------
    _x : np.ndarray
        Corrected matrix
    totalBias : np.ndarray
        Vector with corrections biases for columns
    totalBias2 : np.ndarray
        Vector with corrections biases for rows
    report : (bool, int)
        A tuple that reports convergence
        status and used number of iterations
    """
    N2, N = x.shape
    _x = x.copy()
    totalBias = np.ones(N, np.double)
    totalBias2 = np.ones(N2, np.double)
    iternum = 0
    mask = np.sum(_x, axis=0) == 0
    mask2 = np.sum(_x, axis=1) == 0

    for iternum in range(max_iter):
        s = np.sum(_x, axis=0)
        mask = s == 0
        s = s / np.mean(s[~mask])
        s[mask] = 1.0
        s -= 1.0
        s *= 0.8
        s += 1.0
        totalBias *= s

        s2 = np.sum(_x, axis=1)
        mask2 = s2 == 0
        s2 = s2 / np.mean(s2[~mask2])
        s2[mask2] = 1.0
        s2 -= 1.0
        s2 *= 0.8
        s2 += 1.0
        totalBias2 *= s2

        # _x = _x / s[:, None]  / s[None,:]
        # an explicit cycle is 2x faster here
        for i in range(N2):
            for j in range(N):
                _x[i, j] /= s[j] * s2[i]

        crit = np.var(s)  # np.abs(s - 1).max()
        crit2 = np.var(s2)  # np.abs(s - 1).max()
        if verbose:
            print(crit)

        if (tol > 0) and (crit < tol) and (crit2 < tol):
            converged = True
            break

    corr = totalBias[~mask].mean()  # mean correction factor
    corr2 = totalBias2[~mask2].mean()  # mean correction factor
    _x = _x * corr * corr2  # renormalizing everything
    totalBias /= corr
    totalBias2 /= corr2
    report = (converged, iternum)

    return _x, totalBias, totalBias2, report


# _log_thin: open2c/cooltools, cooltools/sandbox/expected_smoothing.py @ b1911f75b904d94a3d25a5c7083c543ad245baf0
#   function `_log_thin`; licence MIT; Copyright (c) 2017 Cooltools developers
#   changed: type annotations added; Numba decorator removed (it was @numba.njit)
#   original signature: def _log_thin(xs, min_log10_step=0.1):
def _log_thin(xs: Float64[:], min_log10_step: Float64 = 0.1) -> Float64[:]:
    """
    Thin out a sorted array, by selecting a subset of elements that are uniformly spaced in log-space.

    Parameters
    ----------
    xs : array-like
        An array of elements to thin out.
    min_log10_step : float, optional
        The minimal log10 ratio between consecutive elements in the output, by default 0.1

    Returns
    -------
    xs_thinned : array-like
        A subset of elements from xs, whose logs are approx. uniformly spaced.
    """
    xs_thinned = [xs[0]]
    prev = xs[0]
    min_ratio = 10**min_log10_step
    for x in xs[1:]:
        if x > prev * min_ratio:
            xs_thinned.append(x)
            prev = x

    if xs_thinned[-1] != xs[-1]:
        xs_thinned.append(xs[-1])
    return np.array(xs_thinned)


# _log_smooth_numba: open2c/cooltools, cooltools/sandbox/expected_smoothing.py @ b1911f75b904d94a3d25a5c7083c543ad245baf0
#   function `_log_smooth_numba`; licence MIT; Copyright (c) 2017 Cooltools developers
#   changed: type annotations added; Numba decorator removed (it was @numba.njit)
#   original signature: def _log_smooth_numba(xs, ys, sigma_log10=0.1, window_sigma=5, points_per_sigma=10):
def _log_smooth_numba(
    xs: Float64[:],
    ys: Float64[:, :],
    sigma_log10: Float64 = 0.1,
    window_sigma: Int64 = 5,
    points_per_sigma: Int64 = 10,
):
    xs_thinned = xs
    if points_per_sigma:
        xs_thinned = _log_thin(xs, sigma_log10 / points_per_sigma)

    N = xs_thinned.size
    N_FUNCS = ys.shape[0]

    log_xs = np.log10(xs)
    log_thinned_xs = np.log10(xs_thinned)

    ys_smoothed = np.zeros((N_FUNCS, N))

    for i in range(N):
        cur_log_x = log_thinned_xs[i]
        lo = np.searchsorted(log_xs, cur_log_x - sigma_log10 * window_sigma)
        hi = np.searchsorted(log_xs, cur_log_x + sigma_log10 * window_sigma)
        smooth_weights = np.exp(
            -((cur_log_x - log_xs[lo:hi]) ** 2) / 2 / sigma_log10 / sigma_log10
        )
        norm = smooth_weights.sum()

        if norm > 0:
            smooth_weights /= norm

            for k in range(N_FUNCS):
                ys_smoothed[k, i] = np.sum(ys[k, lo:hi] * smooth_weights)

    return xs_thinned, ys_smoothed


# ---------------------------------------------------------------------------
# Call recipes: as cooltools calls the kernels — `_logbins_numba(1, N,
# dist_bin_edge_ratio)` from `observed_over_expected`; `observed_over_expected(A,
# mask)` (api/eigdecomp.py) on a symmetric contact matrix with distance decay
# and a 1-D mask of good bins; `iterative_correction_symmetric(A)` with its
# defaults on a symmetric matrix (the asymmetric one on a rectangular block);
# `_log_smooth_numba(xs, ys, sigma_log10, window_sigma, points_per_sigma)`
# from `log_smooth` on increasing distances and a "tall" 2-D `ys`; from fixed
# seeds.

def _contacts(n, seed):
    rng = np.random.default_rng(seed)
    i, j = np.indices((n, n))
    decay = 1.0 / (1.0 + np.abs(i - j)) ** 1.0
    a = decay * rng.uniform(0.5, 1.5, (n, n))
    return (a + a.T) / 2


def args__logbins_numba():
    return (1, 200, 1.03)


def args_observed_over_expected():
    mask = np.random.default_rng(2).random(60) > 0.1
    return (_contacts(60, 1), mask)


def args_iterative_correction_symmetric():
    return (_contacts(40, 3),)


def args_iterative_correction_asymmetric():
    return (np.random.default_rng(4).uniform(0.5, 1.5, (30, 20)),)


def args__log_thin():
    return (np.arange(1, 2001, dtype=np.float64), 0.01)


def args__log_smooth_numba():
    xs = np.arange(1, 1001, dtype=np.float64)
    rng = np.random.default_rng(5)
    ys = np.vstack([xs ** -1.0, xs ** -0.7]) * rng.uniform(0.8, 1.2, (2, 1000))
    return (xs, ys, 0.1, 5, 10)
