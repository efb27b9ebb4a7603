"""Kernels of sktime (https://github.com/sktime/sktime), BSD-3-Clause licence,
Copyright (c) 2019 - present, The sktime developers."""
import types

import numpy as np

from postyp import Float64, Int64


# mean: sktime/sktime, sktime/utils/numba/stats.py @ 7bd7d1620c0656f3210eeb850bb1c0034159ee47
#   function `mean`; licence BSD-3-Clause; Copyright (c) 2019 - present, The sktime developers
#   changed: type annotations added; the decorator @njit(fastmath=True, cache=True) (sktime.utils.numba.njit: numba.njit) removed
#   original signature: def mean(X):
def mean(X: Float64[:]) -> Float64:
    """Numba mean function for a 1d numpy array.

    Parameters
    ----------
    X : 1d numpy array
        A 1d numpy array of values

    Returns
    -------
    mean : float
        The mean of the input array
    """
    s = 0
    for i in range(X.shape[0]):
        s += X[i]
    return s / X.shape[0]


# count_above_mean: sktime/sktime, sktime/utils/numba/stats.py @ 7bd7d1620c0656f3210eeb850bb1c0034159ee47
#   function `count_above_mean`; licence BSD-3-Clause; Copyright (c) 2019 - present, The sktime developers
#   changed: type annotations added; the decorator @njit(fastmath=True, cache=True) (sktime.utils.numba.njit: numba.njit) removed
#   original signature: def count_above_mean(X):
def count_above_mean(X: Float64[:]) -> Int64:
    """Numba count above mean for a 1d numpy array.

    Parameters
    ----------
    X : 1d numpy array
        A 1d numpy array of values

    Returns
    -------
    mean_crossing_count : float
        The count above mean of the input array
    """
    m = mean(X)
    d = X > m
    count = 0
    for i in range(d.shape[0]):
        if d[i] != 0:
            count += 1
    return count


# std: sktime/sktime, sktime/utils/numba/stats.py @ 7bd7d1620c0656f3210eeb850bb1c0034159ee47
#   function `std`; licence BSD-3-Clause; Copyright (c) 2019 - present, The sktime developers
#   changed: type annotations added; the decorator @njit(fastmath=True, cache=True) (sktime.utils.numba.njit: numba.njit) removed
#   original signature: def std(X):
def std(X: Float64[:]) -> Float64:
    """Numba standard deviation function for a 1d numpy array.

    Parameters
    ----------
    X : 1d numpy array
        A 1d numpy array of values

    Returns
    -------
    std : float
        The standard deviation of the input array
    """
    m = mean(X)
    s = 0
    for i in range(X.shape[0]):
        s += (X[i] - m) ** 2
    return (s / X.shape[0]) ** 0.5


# std2: sktime/sktime, sktime/utils/numba/stats.py @ 7bd7d1620c0656f3210eeb850bb1c0034159ee47
#   function `std2`; licence BSD-3-Clause; Copyright (c) 2019 - present, The sktime developers
#   changed: type annotations added; the decorator @njit(fastmath=True, cache=True) (sktime.utils.numba.njit: numba.njit) removed
#   original signature: def std2(X, X_mean):
def std2(X: Float64[:], X_mean: Float64) -> Float64:
    """Numba standard deviation function for a 1d numpy array with pre-calculated mean.

    Parameters
    ----------
    X : 1d numpy array
        A 1d numpy array of values
    X_mean : float
        The mean of the input array

    Returns
    -------
    std : float
        The standard deviation of the input array
    """
    s = 0
    for i in range(X.shape[0]):
        s += (X[i] - X_mean) ** 2
    return (s / X.shape[0]) ** 0.5


# slope: sktime/sktime, sktime/utils/numba/stats.py @ 7bd7d1620c0656f3210eeb850bb1c0034159ee47
#   function `slope`; licence BSD-3-Clause; Copyright (c) 2019 - present, The sktime developers
#   changed: type annotations added; the decorator @njit(fastmath=True, cache=True) (sktime.utils.numba.njit: numba.njit) removed
#   original signature: def slope(X):
def slope(X: Float64[:]) -> Float64:
    """Numba slope function for a 1d numpy array.

    Parameters
    ----------
    X : 1d numpy array
        A 1d numpy array of values

    Returns
    -------
    slope : float
        The slope of the input array
    """
    sum_y = 0
    sum_x = 0
    sum_xx = 0
    sum_xy = 0
    for i in range(X.shape[0]):
        sum_y += X[i]
        sum_x += i
        sum_xx += i * i
        sum_xy += X[i] * i
    slope = sum_x * sum_y - X.shape[0] * sum_xy
    denom = sum_x * sum_x - X.shape[0] * sum_xx
    return 0 if denom == 0 else slope / denom


# fisher_score: sktime/sktime, sktime/utils/numba/stats.py @ 7bd7d1620c0656f3210eeb850bb1c0034159ee47
#   function `fisher_score`; licence BSD-3-Clause; Copyright (c) 2019 - present, The sktime developers
#   changed: type annotations added; the decorator @njit(fastmath=True, cache=True) (sktime.utils.numba.njit: numba.njit) removed
#   original signature: def fisher_score(X, y):
def fisher_score(X: Float64[:], y: Int64[:]) -> Float64:
    """Numba Fisher score function.

    Parameters
    ----------
    X : 1d numpy array
        A 1d numpy array of attribute values
    y : 1d numpy array
        A 1d numpy array of class values

    Returns
    -------
    score : float
        The Fisher score for the given array of attribute values and class values
    """
    unique_labels = np.unique(y)
    mu_feat = mean(X)
    accum_numerator = 0
    accum_denominator = 0

    for k in unique_labels:
        idx_label = np.where(y == k)[0]
        data_sub = X[idx_label]

        mu_feat_label = mean(data_sub)
        sigma_feat_label = max(std2(data_sub, mu_feat_label), 0.000001)

        accum_numerator += idx_label.shape[0] * (mu_feat_label - mu_feat) ** 2
        accum_denominator += idx_label.shape[0] * sigma_feat_label**2

    if accum_denominator == 0:
        return 0
    else:
        return accum_numerator / accum_denominator


# unique_count: sktime/sktime, sktime/utils/numba/general.py @ 7bd7d1620c0656f3210eeb850bb1c0034159ee47
#   function `unique_count`; licence BSD-3-Clause; Copyright (c) 2019 - present, The sktime developers
#   changed: type annotations added; the decorator @njit(fastmath=True, cache=True) (sktime.utils.numba.njit: numba.njit) removed (a tuple result: unannotated)
#   original signature: def unique_count(X):
def unique_count(X: Float64[:]):
    """Numba unique value count function for a 1d numpy array.

    np.unique() is supported by numba, but the return_counts parameter is not.

    Parameters
    ----------
    X : 1d numpy array
        A 1d numpy array of values

    Returns
    -------
    unique : 1d numpy array
        The unique values in X
    counts : 1d numpy array
        The occurrence count for each unique value in X
    """
    if X.shape[0] > 0:
        X = np.sort(X)
        unique = np.zeros(X.shape[0])
        unique[0] = X[0]
        counts = np.zeros(X.shape[0], dtype=np.int_)
        counts[0] = 1
        unique_count = 0

        for i in X[1:]:
            if i != unique[unique_count]:
                unique_count += 1
                unique[unique_count] = i
                counts[unique_count] = 1
            else:
                counts[unique_count] += 1
        return unique[: unique_count + 1], counts[: unique_count + 1]
    return None, np.zeros(0, dtype=np.int_)


# z_normalise_series: sktime/sktime, sktime/utils/numba/general.py @ 7bd7d1620c0656f3210eeb850bb1c0034159ee47
#   function `z_normalise_series`; licence BSD-3-Clause; Copyright (c) 2019 - present, The sktime developers
#   changed: type annotations added; the decorator @njit(fastmath=True, cache=True) (sktime.utils.numba.njit: numba.njit) removed
#   original signature: def z_normalise_series(X):
def z_normalise_series(X: Float64[:]) -> Float64[:]:
    """Numba series normalization function for a 1d numpy array.

    Parameters
    ----------
    X : 1d numpy array
        A 1d numpy array of values

    Returns
    -------
    arr : 1d numpy array
        The normalised series
    """
    s = stats.std(X)
    if s > 0:
        arr = (X - stats.mean(X)) / s
    else:
        arr = X - stats.mean(X)
    return arr


# z_normalise_series_2d: sktime/sktime, sktime/utils/numba/general.py @ 7bd7d1620c0656f3210eeb850bb1c0034159ee47
#   function `z_normalise_series_2d`; licence BSD-3-Clause; Copyright (c) 2019 - present, The sktime developers
#   changed: type annotations added; the decorator @njit(fastmath=True, cache=True) (sktime.utils.numba.njit: numba.njit) removed
#   original signature: def z_normalise_series_2d(X):
def z_normalise_series_2d(X: Float64[:, :]) -> Float64[:, :]:
    """Numba series normalization function for a 2d numpy array.

    Parameters
    ----------
    X : 2d numpy array
        A 2d numpy array of values

    Returns
    -------
    arr : 2d numpy array
        The normalised series
    """
    arr = np.zeros(X.shape)
    for i in range(X.shape[0]):
        arr[i] = z_normalise_series(X[i])
    return arr


# sktime/utils/numba/general.py calls the statistics above through
# `import sktime.utils.numba.stats as stats`: a module standing in for it,
# holding the functions of this file that it reads
stats = types.ModuleType("stats")
stats.mean = mean
stats.std = std


# ---------------------------------------------------------------------------
# Call recipes, shaped as sktime's feature extractors call the kernels: one
# univariate series (length 60) for the summary statistics, a panel of 8
# series for `z_normalise_series_2d`, one interval's feature values with the
# class labels of the cases for `fisher_score`, and series with repeated values
# for `unique_count`. From fixed seeds.

def _series(seed, n=60):
    rng = np.random.default_rng(seed)
    return np.cumsum(rng.normal(0.0, 1.0, n)) + 0.05 * np.arange(n)



def args_count_above_mean():
    return (_series(2),)


def args_std():
    return (_series(3),)


def args_slope():
    return (_series(4),)


def args_fisher_score():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 40).astype(np.int64)
    return (rng.normal(0.0, 1.0, 40) + 0.8 * y, y)


def args_unique_count():
    rng = np.random.default_rng(6)
    return (rng.integers(0, 7, 30).astype(np.float64),)


def args_z_normalise_series_2d():
    rng = np.random.default_rng(7)
    X = rng.normal(3.0, 2.0, (8, 50))
    X[3] = 1.5  # a constant series: its standard deviation is 0
    return (X,)
