"""Kernels of pyts (https://github.com/johannfaouzi/pyts), BSD-3-Clause licence,
Copyright (c) 2018, Johann Faouzi and pyts contributors."""
from math import sqrt

import numpy as np

from postyp import Float64, Int64

prange = range  # the original imports numba's prange; CPython runs it as range


# _paa: johannfaouzi/pyts, pyts/approximation/paa.py @ 4f3d97bcb1016d33dbfaef68c0931756a4552410
#   function `_paa`; licence BSD-3-Clause; Copyright (c) 2018, Johann Faouzi and pyts contributors
#   changed: type annotations added; Numba decorator removed (it was @njit())
#   original signature: def _paa(X, n_samples, n_timestamps, start, end, n_timestamps_new):
def _paa(
    X: Float64[:, :],
    n_samples: Int64,
    n_timestamps: Int64,
    start: Int64[:],
    end: Int64[:],
    n_timestamps_new: Int64,
) -> Float64[:, :]:
    X_paa = np.empty((n_samples, n_timestamps_new))
    for i in prange(n_samples):
        for j in prange(n_timestamps_new):
            X_paa[i, j] = np.mean(X[i, start[j]:end[j]])
    return X_paa


# _gasf: johannfaouzi/pyts, pyts/image/gaf.py @ 4f3d97bcb1016d33dbfaef68c0931756a4552410
#   function `_gasf`; licence BSD-3-Clause; Copyright (c) 2018, Johann Faouzi and pyts contributors
#   changed: type annotations added; Numba decorator removed (it was @njit())
#   original signature: def _gasf(X_cos, X_sin, n_samples, image_size):
def _gasf(
    X_cos: Float64[:, :],
    X_sin: Float64[:, :],
    n_samples: Int64,
    image_size: Int64,
) -> Float64[:, :, :]:
    X_gasf = np.empty((n_samples, image_size, image_size))
    for i in prange(n_samples):
        X_gasf[i] = np.outer(X_cos[i], X_cos[i]) - np.outer(X_sin[i], X_sin[i])
    return X_gasf


# _markov_transition_matrix: johannfaouzi/pyts, pyts/image/mtf.py @ 4f3d97bcb1016d33dbfaef68c0931756a4552410
#   function `_markov_transition_matrix`; licence BSD-3-Clause; Copyright (c) 2018, Johann Faouzi and pyts contributors
#   changed: type annotations added; Numba decorator removed (it was @njit())
#   original signature: def _markov_transition_matrix(X_binned, n_samples, n_timestamps, n_bins):
def _markov_transition_matrix(
    X_binned: Int64[:, :],
    n_samples: Int64,
    n_timestamps: Int64,
    n_bins: Int64,
) -> Float64[:, :, :]:
    X_mtm = np.zeros((n_samples, n_bins, n_bins))
    for i in prange(n_samples):
        for j in prange(n_timestamps - 1):
            X_mtm[i, X_binned[i, j], X_binned[i, j + 1]] += 1
    return X_mtm


# _markov_transition_field: johannfaouzi/pyts, pyts/image/mtf.py @ 4f3d97bcb1016d33dbfaef68c0931756a4552410
#   function `_markov_transition_field`; licence BSD-3-Clause; Copyright (c) 2018, Johann Faouzi and pyts contributors
#   changed: type annotations added; Numba decorator removed (it was @njit())
#   original signature: def _markov_transition_field(X_binned, X_mtm, n_samples, n_timestamps, n_bins):
def _markov_transition_field(
    X_binned: Int64[:, :],
    X_mtm: Float64[:, :, :],
    n_samples: Int64,
    n_timestamps: Int64,
    n_bins: Int64,
) -> Float64[:, :, :]:
    X_mtf = np.zeros((n_samples, n_timestamps, n_timestamps))
    for i in prange(n_samples):
        for j in prange(n_timestamps):
            for k in prange(n_timestamps):
                X_mtf[i, j, k] = X_mtm[i, X_binned[i, j], X_binned[i, k]]
    return X_mtf


# _aggregated_markov_transition_field: johannfaouzi/pyts, pyts/image/mtf.py @ 4f3d97bcb1016d33dbfaef68c0931756a4552410
#   function `_aggregated_markov_transition_field`; licence BSD-3-Clause; Copyright (c) 2018, Johann Faouzi and pyts contributors
#   changed: type annotations added; Numba decorator removed (it was @njit())
#   original signature: def _aggregated_markov_transition_field(X_mtf, n_samples, image_size, start, end):
def _aggregated_markov_transition_field(
    X_mtf: Float64[:, :, :],
    n_samples: Int64,
    image_size: Int64,
    start: Int64[:],
    end: Int64[:],
) -> Float64[:, :, :]:
    X_amtf = np.empty((n_samples, image_size, image_size))
    for i in prange(n_samples):
        for j in prange(image_size):
            for k in prange(image_size):
                X_amtf[i, j, k] = np.mean(
                    X_mtf[i, start[j]:end[j], start[k]:end[k]]
                )
    return X_amtf


# _uniform_bins: johannfaouzi/pyts, pyts/preprocessing/discretizer.py @ 4f3d97bcb1016d33dbfaef68c0931756a4552410
#   function `_uniform_bins`; licence BSD-3-Clause; Copyright (c) 2018, Johann Faouzi and pyts contributors
#   changed: type annotations added; Numba decorator removed (it was @njit())
#   original signature: def _uniform_bins(sample_min, sample_max, n_samples, n_bins):
def _uniform_bins(
    sample_min: Float64[:],
    sample_max: Float64[:],
    n_samples: Int64,
    n_bins: Int64,
) -> Float64[:, :]:
    bin_edges = np.empty((n_bins - 1, n_samples))
    for i in prange(n_samples):
        bin_edges[:, i] = np.linspace(
            sample_min[i], sample_max[i], n_bins + 1)[1:-1]
    return bin_edges


# _digitize_2d: johannfaouzi/pyts, pyts/preprocessing/discretizer.py @ 4f3d97bcb1016d33dbfaef68c0931756a4552410
#   function `_digitize_2d`; licence BSD-3-Clause; Copyright (c) 2018, Johann Faouzi and pyts contributors
#   changed: type annotations added; Numba decorator removed (it was @njit())
#   original signature: def _digitize_2d(X, bins, n_samples, n_timestamps):
def _digitize_2d(
    X: Float64[:, :],
    bins: Float64[:, :],
    n_samples: Int64,
    n_timestamps: Int64,
) -> Float64[:, :]:
    X_digit = np.empty((n_samples, n_timestamps))
    for i in prange(n_samples):
        X_digit[i] = np.searchsorted(bins[i], X[i], side='left')
    return X_digit


# _accumulated_cost_matrix_region: johannfaouzi/pyts, pyts/metrics/dtw.py @ 4f3d97bcb1016d33dbfaef68c0931756a4552410
#   function `_accumulated_cost_matrix_region`; licence BSD-3-Clause; Copyright (c) 2018, Johann Faouzi and pyts contributors
#   changed: type annotations added; Numba decorator removed (it was @njit())
#   original signature: def _accumulated_cost_matrix_region(cost_matrix, region):
def _accumulated_cost_matrix_region(
    cost_matrix: Float64[:, :],
    region: Int64[:, :],
) -> Float64[:, :]:
    n_timestamps_1, n_timestamps_2 = cost_matrix.shape
    acc_cost_mat = np.ones((n_timestamps_1, n_timestamps_2)) * np.inf
    acc_cost_mat[0, 0: region[1, 0]] = np.cumsum(
        cost_matrix[0, 0: region[1, 0]]
    )
    acc_cost_mat[0: region[1, 0], 0] = np.cumsum(
        cost_matrix[0: region[1, 0], 0]
    )
    region_ = np.copy(region)
    region_[0] = np.maximum(region_[0], 1)
    for i in range(1, n_timestamps_1):
        for j in range(region_[0, i], region_[1, i]):
            acc_cost_mat[i, j] = cost_matrix[i, j] + min(
                acc_cost_mat[i - 1][j - 1],
                acc_cost_mat[i - 1][j],
                acc_cost_mat[i][j - 1]
            )
    return acc_cost_mat


# _accumulated_cost_matrix_no_region: johannfaouzi/pyts, pyts/metrics/dtw.py @ 4f3d97bcb1016d33dbfaef68c0931756a4552410
#   function `_accumulated_cost_matrix_no_region`; licence BSD-3-Clause; Copyright (c) 2018, Johann Faouzi and pyts contributors
#   changed: type annotations added; Numba decorator removed (it was @njit())
#   original signature: def _accumulated_cost_matrix_no_region(cost_matrix):
def _accumulated_cost_matrix_no_region(cost_matrix: Float64[:, :]) -> Float64[:, :]:
    n_timestamps_1, n_timestamps_2 = cost_matrix.shape
    acc_cost_mat = np.empty((n_timestamps_1, n_timestamps_2))
    acc_cost_mat[0] = np.cumsum(cost_matrix[0])
    acc_cost_mat[:, 0] = np.cumsum(cost_matrix[:, 0])
    for j in range(1, n_timestamps_2):
        for i in range(1, n_timestamps_1):
            acc_cost_mat[i, j] = cost_matrix[i, j] + min(
                acc_cost_mat[i - 1][j - 1],
                acc_cost_mat[i - 1][j],
                acc_cost_mat[i][j - 1]
            )
    return acc_cost_mat


# _lower_bound_yi_x_y: johannfaouzi/pyts, pyts/metrics/lower_bounds.py @ 4f3d97bcb1016d33dbfaef68c0931756a4552410
#   function `_lower_bound_yi_x_y`; licence BSD-3-Clause; Copyright (c) 2018, Johann Faouzi and pyts contributors
#   changed: type annotations added; Numba decorator removed (it was @njit())
#   original signature: def _lower_bound_yi_x_y(x, x_min, x_max, y, y_min, y_max):
def _lower_bound_yi_x_y(
    x: Float64[:],
    x_min: Float64,
    x_max: Float64,
    y: Float64[:],
    y_min: Float64,
    y_max: Float64,
) -> Float64:
    if x_max >= y_max:
        if x_min < y_min:
            sum1 = np.sum(np.square(x[x > y_max] - y_max))
            sum2 = np.sum(np.square(x[x < y_min] - y_min))
            return sqrt(sum1 + sum2)
        elif x_min > y_max:
            return sqrt(max(np.sum(np.square(x - y_max)),
                            np.sum(np.square(y - x_min))))
        else:
            sum1 = np.sum(np.square(x[x > y_max] - y_max))
            sum2 = np.sum(np.square(y[y < x_min] - x_min))
            return sqrt(sum1 + sum2)
    else:
        if y_min < x_min:
            sum1 = np.sum(np.square(y[y > x_max] - x_max))
            sum2 = np.sum(np.square(y[y < x_min] - x_min))
            return sqrt(sum1 + sum2)
        elif y_min > x_max:
            return sqrt(max(np.sum(np.square(y - x_max)),
                            np.sum(np.square(x - y_min))))
        else:
            sum1 = np.sum(np.square(y[y > x_max] - x_max))
            sum2 = np.sum(np.square(x[x < y_min] - y_min))
            return sqrt(sum1 + sum2)


# _warping_envelope_2d: johannfaouzi/pyts, pyts/metrics/lower_bounds.py @ 4f3d97bcb1016d33dbfaef68c0931756a4552410
#   function `_warping_envelope_2d`; licence BSD-3-Clause; Copyright (c) 2018, Johann Faouzi and pyts contributors
#   changed: type annotations added; no result annotation (it returns a tuple); Numba decorator removed (it was @njit())
#   original signature: def _warping_envelope_2d(X, n_samples, n_timestamps, region):
def _warping_envelope_2d(
    X: Float64[:, :],
    n_samples: Int64,
    n_timestamps: Int64,
    region: Int64[:, :],
):
    lower = np.empty((n_samples, n_timestamps))
    upper = np.empty((n_samples, n_timestamps))
    for i in prange(n_samples):
        for j in prange(n_timestamps):
            sub_series = X[i, region[0, j]:region[1, j]]
            lower[i, j] = np.min(sub_series)
            upper[i, j] = np.max(sub_series)
    return lower, upper


# apply_one_kernel_one_sample: johannfaouzi/pyts, pyts/transformation/rocket.py @ 4f3d97bcb1016d33dbfaef68c0931756a4552410
#   function `apply_one_kernel_one_sample`; licence BSD-3-Clause; Copyright (c) 2018, Johann Faouzi and pyts contributors
#   changed: type annotations added; no result annotation (it returns a tuple); Numba decorator removed (it was @njit(fastmath=True))
#   original signature: def apply_one_kernel_one_sample(x, n_timestamps, weight, length, bias, dilation, padding):
def apply_one_kernel_one_sample(
    x: Float64[:],
    n_timestamps: Int64,
    weight: Float64[:],
    length: Int64,
    bias: Float64,
    dilation: Int64,
    padding: Int64,
):
    """Apply one kernel to one time series.

    Parameters
    ----------
    x : array, shape = (n_timestamps,)
        One time series.

    n_timestamps : int
        Number of timestamps.

    weights : array, shape = (length,)
        Weights of the kernel. Zero padding values are added.

    length : int
        Length of the kernel.

    bias : int
        Bias of the kernel.

    dilation : int
        Dilation of the kernel.

    padding : int
        Padding of the kernel.

    Returns
    -------
    x_new : array, shape = (2,)
        Extracted features using the kernel.

    """
    # Compute padded x
    n_conv = n_timestamps - ((length - 1) * dilation) + (2 * padding)
    if padding > 0:
        x_pad = np.zeros(n_timestamps + 2 * padding)
        x_pad[padding:-padding] = x
    else:
        x_pad = x

    # Compute the convolutions
    x_conv = np.zeros(n_conv)
    for i in prange(n_conv):
        for j in prange(length):
            x_conv[i] += weight[j] * x_pad[i + (j * dilation)]
    x_conv += bias

    # Return the features: maximum and proportion of positive values
    return np.max(x_conv), np.mean(x_conv > 0)


# apply_all_kernels: johannfaouzi/pyts, pyts/transformation/rocket.py @ 4f3d97bcb1016d33dbfaef68c0931756a4552410
#   function `apply_all_kernels`; licence BSD-3-Clause; Copyright (c) 2018, Johann Faouzi and pyts contributors
#   changed: type annotations added; Numba decorator removed (it was @njit())
#   original signature: def apply_all_kernels(X, weights, lengths, biases, dilations, paddings):
def apply_all_kernels(
    X: Float64[:, :],
    weights: Float64[:, :],
    lengths: Int64[:],
    biases: Float64[:],
    dilations: Int64[:],
    paddings: Int64[:],
) -> Float64[:, :]:
    """Apply one kernel to a data set of time series.

    Parameters
    ----------
    X : array, shape = (n_samples, n_timestamps)
        Input data.

    weights : array, shape = (n_kernels, max(kernel_sizes))
        Weights of the kernels. Zero padding values are added.

    lengths : array, shape = (n_kernels,)
        Length of each kernel.

    biases : array, shape = (n_kernels,)
        Bias of each kernel.

    dilations : array, shape = (n_kernels,)
        Dilation of each kernel.

    paddings : array, shape = (n_kernels,)
        Padding of each kernel.

    Returns
    -------
    X_new : array, shape = (n_samples, 2 * n_kernels)
        Extracted features using all the kernels.

    """
    n_samples, n_timestamps = X.shape
    n_kernels = lengths.size
    X_new = np.empty((n_samples, 2 * n_kernels))
    for i in prange(n_samples):
        for j in prange(n_kernels):
            X_new[i, (2 * j):(2 * j + 2)] = apply_one_kernel_one_sample(
                X[i], n_timestamps, weights[j], lengths[j],
                biases[j], dilations[j], paddings[j]
            )
    return X_new


# ---------------------------------------------------------------------------
# Call recipes: the arrays pyts's estimators build before calling the kernels
# (PAA.transform, GramianAngularField.transform, MarkovTransitionField.transform,
# KBinsDiscretizer, accumulated_cost_matrix, lower_bound_yi, _warping_envelope,
# ROCKET.fit / ROCKET.transform), from fixed seeds.

def _series(n_samples=4, n_timestamps=30, seed=0):
    return np.random.RandomState(seed).randn(n_samples, n_timestamps).cumsum(axis=1)


def _segmentation(ts_size, n_segments):
    # pyts.utils.segmentation(ts_size, window_size, overlapping=False, n_segments)
    bounds = np.linspace(0, ts_size, n_segments + 1).astype('int64')
    return bounds[:-1], bounds[1:], bounds[:-1].size


def _band(n_timestamps, radius):
    # a Sakoe-Chiba band as pyts.metrics.sakoe_chiba_band gives it: (2, n)
    i = np.arange(n_timestamps)
    return np.array([np.maximum(0, i - radius),
                     np.minimum(n_timestamps, i + radius + 1)], dtype=np.int64)


def _binned(n_bins=5):
    # KBinsDiscretizer(n_bins, strategy='quantile').fit_transform(X)
    X = _series()
    bins = np.percentile(X, np.linspace(0, 100, n_bins + 1)[1:-1], axis=1).T
    return np.array([np.searchsorted(bins[i], X[i], side='left')
                     for i in range(X.shape[0])], dtype=np.int64)


def _mtm(X_binned, n_bins):
    # MarkovTransitionField.transform: counts normalised by row
    X_mtm = _markov_transition_matrix(X_binned, X_binned.shape[0], X_binned.shape[1], n_bins)
    sum_mtm = X_mtm.sum(axis=2)
    np.place(sum_mtm, sum_mtm == 0, 1)
    return X_mtm / sum_mtm[:, :, None]


def args__paa():
    # PAA(output_size=8) on (4, 30) series
    X = _series()
    start, end, size = _segmentation(30, 8)
    return (X, 4, 30, start, end, size)


def args__gasf():
    # GramianAngularField(image_size=30): X_cos scaled to [-1, 1]
    X = _series()
    mn, mx = X.min(axis=1, keepdims=True), X.max(axis=1, keepdims=True)
    X_cos = 2 * (X - mn) / (mx - mn) - 1
    X_sin = np.sqrt(np.clip(1 - X_cos ** 2, 0, 1))
    return (X_cos, X_sin, 4, 30)


def args__markov_transition_matrix():
    return (_binned(5), 4, 30, 5)


def args__markov_transition_field():
    X_binned = _binned(5)
    return (X_binned, _mtm(X_binned, 5), 4, 30, 5)


def args__aggregated_markov_transition_field():
    # MarkovTransitionField(image_size=7) on 30 timestamps: 30 = 4 * 7 + 2,
    # so window_size 5 and segmentation(30, 5, False, 7)
    X_binned = _binned(5)
    X_mtf = _markov_transition_field(X_binned, _mtm(X_binned, 5), 4, 30, 5)
    start, end, size = _segmentation(30, 7)
    return (X_mtf, 4, size, start, end)


def args__uniform_bins():
    # KBinsDiscretizer(n_bins=5, strategy='uniform'): per-sample min and max
    X = _series()
    return (X.min(axis=1), X.max(axis=1), 4, 5)


def args__digitize_2d():
    # _digitize(X, bin_edges) with the (n_samples, n_bins - 1) uniform edges
    X = _series()
    bins = np.array([np.linspace(X[i].min(), X[i].max(), 6)[1:-1] for i in range(4)])
    return (X, bins, 4, 30)


def args__accumulated_cost_matrix_region():
    # cost_matrix(x, y, dist='square') of two 20-point series, a band region
    x, y = _series(2, 20, seed=1)
    return ((x[:, None] - y[None, :]) ** 2, _band(20, 2))


def args__accumulated_cost_matrix_no_region():
    x = _series(1, 20, seed=2)[0]
    y = _series(1, 25, seed=3)[0]
    return (np.abs(x[:, None] - y[None, :]),)


def args__lower_bound_yi_x_y():
    # lower_bound_yi(X_train, X_test): one training and one test series
    # with their minima and maxima
    x, y = _series(2, 30, seed=4)
    return (x, x.min(), x.max(), y, y.min(), y.max())


def args__warping_envelope_2d():
    return (_series(), 4, 30, _band(30, 3))


def _rocket(n_kernels=10, n_timestamps=150, kernel_sizes=(7, 9, 11), seed=0):
    # the arrays of generate_kernels, as ROCKET.fit stores them (dilations
    # and paddings as int64)
    rng = np.random.RandomState(seed)
    lengths = rng.choice(np.array(kernel_sizes, dtype=np.int64), size=n_kernels)
    weights = np.zeros((n_kernels, max(kernel_sizes)))
    for i in range(n_kernels):
        w = rng.randn(lengths[i])
        weights[i, :lengths[i]] = w - w.mean()
    biases = rng.uniform(-1, 1, size=n_kernels)
    upper_bounds = np.log2(np.floor_divide(n_timestamps - 1, lengths - 1))
    dilations = np.floor(np.power(2, rng.uniform(0, upper_bounds))).astype(np.int64)
    paddings = np.where(rng.randint(0, 2, n_kernels).astype(np.bool_),
                        (lengths - 1) * dilations // 2, 0).astype(np.int64)
    return weights, lengths, biases, dilations, paddings


def args_apply_one_kernel_one_sample():
    # one sample of length 150 (GunPoint's length) and a padded kernel
    x = _series(1, 150, seed=5)[0]
    weights, lengths, biases, dilations, paddings = _rocket()
    j = int(np.argmax(paddings > 0))
    return (x, 150, weights[j], int(lengths[j]), float(biases[j]),
            int(dilations[j]), int(paddings[j]))


def args_apply_all_kernels():
    # ROCKET(n_kernels=10).fit(X).transform(X) on (5, 150) series
    X = _series(5, 150, seed=6)
    return (X,) + _rocket()
