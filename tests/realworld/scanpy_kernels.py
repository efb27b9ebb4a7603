"""Kernels of scanpy (https://github.com/scverse/scanpy), BSD-3-Clause licence,
Copyright (c) 2025 scverse®, Copyright (c) 2017 F. Alexander Wolf, P. Angerer,
Theis Lab."""
import types

import numpy as np

from postyp import Float32, Float64, Int32, Int64, Out

# scanpy does `import numba` and calls `numba.prange`: a module standing in
# for it, with `prange` as `range` (Numba is not needed to run the corpus)
numba = types.ModuleType("numba")
numba.prange = range


# _chan_combine: scverse/scanpy, src/scanpy/get/_aggregated.py @ fabadb9412c0d1cd9df9d9c2e95ac266d564ee18
#   function `_chan_combine`; licence BSD-3-Clause; Copyright (c) 2025 scverse®; Copyright (c) 2017 F. Alexander Wolf, P. Angerer, Theis Lab
#   changed: type annotations added in place of the project's own (its `-> tuple[float, float, float]` dropped: a tuple result is unannotated); the decorator @numba.njit(inline="always") removed
#   original signature: def _chan_combine(n_a: float, mean_a: float, m2_a: float, n_b: float, mean_b: float, m2_b: float) -> tuple[float, float, float]:
def _chan_combine(  # noqa: PLR0917
    n_a: Float64, mean_a: Float64, m2_a: Float64, n_b: Float64, mean_b: Float64, m2_b: Float64
):
    """Combine two ``(count, mean, M2)`` groups pairwise."""
    if n_a == 0.0:
        return n_b, mean_b, m2_b
    if n_b == 0.0:
        return n_a, mean_a, m2_a
    n = n_a + n_b
    delta = mean_b - mean_a
    return (
        n,
        (n_a * mean_a + n_b * mean_b) / n,
        m2_a + m2_b + delta * delta * n_a * n_b / n,
    )


# _chan_combine_blocks: scverse/scanpy, src/scanpy/get/_aggregated.py @ fabadb9412c0d1cd9df9d9c2e95ac266d564ee18
#   function `_chan_combine_blocks`; licence BSD-3-Clause; Copyright (c) 2025 scverse®; Copyright (c) 2017 F. Alexander Wolf, P. Angerer, Theis Lab
#   changed: type annotations added in place of the project's own; the decorator @njit (fast_array_utils.numba.njit: numba.njit, parallel where the threading layer allows) removed
#   original signature: def _chan_combine_blocks(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
def _chan_combine_blocks(
    a: Float64[:, :, :], b: Float64[:, :, :]
) -> Float64[:, :, :]:
    """Combine two ``(3, K, F)`` ``(count, mean, M2)`` stat blocks pairwise."""
    out = np.empty_like(a)
    for i in numba.prange(a.shape[1]):
        for j in range(a.shape[2]):
            out[0, i, j], out[1, i, j], out[2, i, j] = _chan_combine(
                a[0, i, j],
                a[1, i, j],
                a[2, i, j],
                b[0, i, j],
                b[1, i, j],
                b[2, i, j],
            )
    return out


# _chan_accumulate: scverse/scanpy, src/scanpy/tools/_rank_genes_groups.py @ fabadb9412c0d1cd9df9d9c2e95ac266d564ee18
#   function `_chan_accumulate`; licence BSD-3-Clause; Copyright (c) 2025 scverse®; Copyright (c) 2017 F. Alexander Wolf, P. Angerer, Theis Lab
#   changed: type annotations added in place of the project's own; the decorator @numba.njit removed
#   original signature: def _chan_accumulate(group_counts: NDArray[np.float64], mean: NDArray[np.float64], m2: NDArray[np.float64], j: int, direction: int) -> NDArray[np.float64]:
def _chan_accumulate(
    group_counts: Float64[:],
    mean: Float64[:, :],
    m2: Float64[:, :],
    j: Int64,
    direction: Int64,
) -> Float64[:, :]:
    """Accumulate a running Chan combine of the groups for gene ``j``.

    ``acc[i]`` holds the combined ``(count, mean, M2)`` of group ``i`` together with
    every group toward ``direction``: ``+1`` gives groups ``0..i`` (forward),
    ``-1`` gives groups ``i..end`` (backward).
    """
    n_groups = group_counts.shape[0]
    acc = np.empty((n_groups, 3))
    # accumulated (count, mean, M2) of the groups visited so far
    acc_count = acc_mean = acc_m2 = 0.0
    # visit groups forward (direction +1) or backward (-1)
    group_order = range(n_groups) if direction == 1 else range(n_groups - 1, -1, -1)
    for i in group_order:
        acc_count, acc_mean, acc_m2 = _chan_combine(
            acc_count, acc_mean, acc_m2, group_counts[i], mean[i, j], m2[i, j]
        )
        acc[i, 0], acc[i, 1], acc[i, 2] = acc_count, acc_mean, acc_m2
    return acc


# _vars_rest: scverse/scanpy, src/scanpy/tools/_rank_genes_groups.py @ fabadb9412c0d1cd9df9d9c2e95ac266d564ee18
#   function `_vars_rest`; licence BSD-3-Clause; Copyright (c) 2025 scverse®; Copyright (c) 2017 F. Alexander Wolf, P. Angerer, Theis Lab
#   changed: type annotations added in place of the project's own; the decorator @njit (fast_array_utils.numba.njit: numba.njit, parallel where the threading layer allows) removed
#   original signature: def _vars_rest(group_counts: NDArray[np.float64], mean: NDArray[np.float64], m2: NDArray[np.float64], k: int) -> NDArray[np.float64]:
def _vars_rest(
    group_counts: Float64[:],
    mean: Float64[:, :],
    m2: Float64[:, :],
    k: Int64,
) -> Float64[:, :]:
    """Leave-one-out variance for each selected group, parallel over genes.

    Group ``g``'s "rest" is every other group combined — the groups up to ``g - 1``
    pooled with the groups from ``g + 1`` — so variances are never subtracted
    (Chan's cancellation-free combine).
    """
    n_genes = mean.shape[1]
    vars_rest = np.zeros((k, n_genes))
    for j in numba.prange(n_genes):
        # combined (count, mean, M2) of groups 0..i (forward) and i..end (backward)
        combined_stats_upto_group = _chan_accumulate(group_counts, mean, m2, j, 1)
        combined_stats_from_group = _chan_accumulate(group_counts, mean, m2, j, -1)

        # each group g's "rest" stats = the groups before g pooled with the groups after g
        for g in range(k):
            stats_after_g = combined_stats_from_group[g + 1]
            if g >= 1:
                stats_before_g = combined_stats_upto_group[g - 1]
                # each stats row is (count, mean, M2)
                n_r, _, m2_r = _chan_combine(
                    n_a=stats_before_g[0],
                    mean_a=stats_before_g[1],
                    m2_a=stats_before_g[2],
                    n_b=stats_after_g[0],
                    mean_b=stats_after_g[1],
                    m2_b=stats_after_g[2],
                )
            else:
                # g == 0 has no groups before it, so its rest is just the groups after
                n_r, m2_r = stats_after_g[0], stats_after_g[2]
            denom = n_r - 1.0
            v = m2_r / denom
            vars_rest[g, j] = v
    return vars_rest


# rankdata: scverse/scanpy, src/scanpy/tools/_rank_genes_groups.py @ fabadb9412c0d1cd9df9d9c2e95ac266d564ee18
#   function `rankdata`; licence BSD-3-Clause; Copyright (c) 2025 scverse®; Copyright (c) 2017 F. Alexander Wolf, P. Angerer, Theis Lab
#   changed: type annotations added in place of the project's own; the decorator @njit (fast_array_utils.numba.njit: numba.njit, parallel where the threading layer allows) removed
#   original signature: def rankdata(data: NDArray[np.number]) -> NDArray[np.float64]:
def rankdata(data: Float64[:, :]) -> Float64[:, :]:
    """Parallelized version of scipy.stats.rankdata."""
    ranked = np.empty(data.shape, dtype=np.float64)
    for j in numba.prange(data.shape[1]):
        arr = np.ravel(data[:, j])
        sorter = np.argsort(arr)

        arr = arr[sorter]
        obs = np.concatenate((np.array([True]), arr[1:] != arr[:-1]))

        dense = np.empty(obs.size, dtype=np.int64)
        dense[sorter] = obs.cumsum()

        # cumulative counts of each unique value
        count = np.concatenate((np.flatnonzero(obs), np.array([len(obs)])))
        ranked[:, j] = 0.5 * (count[dense] + count[dense - 1] + 1)

    return ranked


# _tiecorrect: scverse/scanpy, src/scanpy/tools/_rank_genes_groups.py @ fabadb9412c0d1cd9df9d9c2e95ac266d564ee18
#   function `_tiecorrect`; licence BSD-3-Clause; Copyright (c) 2025 scverse®; Copyright (c) 2017 F. Alexander Wolf, P. Angerer, Theis Lab
#   changed: type annotations added in place of the project's own; the decorator @njit (fast_array_utils.numba.njit: numba.njit, parallel where the threading layer allows) removed
#   original signature: def _tiecorrect(rankvals: NDArray[np.number]) -> NDArray[np.float64]:
def _tiecorrect(rankvals: Float64[:, :]) -> Float64[:]:
    """Parallelized version of scipy.stats.tiecorrect."""
    tc = np.ones(rankvals.shape[1], dtype=np.float64)
    for j in numba.prange(rankvals.shape[1]):
        arr = np.sort(np.ravel(rankvals[:, j]))
        idx = np.flatnonzero(
            np.concatenate((np.array([True]), arr[1:] != arr[:-1], np.array([True])))
        )
        cnt = np.diff(idx).astype(np.float64)

        size = np.float64(arr.size)
        if size >= 2:
            tc[j] = 1.0 - (cnt**3 - cnt).sum() / (size**3 - size)

    return tc


# _create_regressor_categorical: scverse/scanpy, src/scanpy/preprocessing/_simple.py @ fabadb9412c0d1cd9df9d9c2e95ac266d564ee18
#   function `_create_regressor_categorical`; licence BSD-3-Clause; Copyright (c) 2025 scverse®; Copyright (c) 2017 F. Alexander Wolf, P. Angerer, Theis Lab
#   changed: type annotations added in place of the project's own; the decorator @njit (fast_array_utils.numba.njit: numba.njit, parallel where the threading layer allows) removed
#   original signature: def _create_regressor_categorical(x: np.ndarray, /, number_categories: int, cat_array: np.ndarray) -> np.ndarray:
def _create_regressor_categorical(
    x: Float64[:, :], /, number_categories: Int64, cat_array: Int64[:]
) -> Float32[:, :]:
    # create regressor matrix for categorical variables
    # would be best to use X dtype but this matches old behavior
    regressors = np.zeros(x.shape, dtype=np.float32)
    # iterate over categories
    for category in range(number_categories):
        # iterate over genes and calculate mean expression
        # for each gene per category
        mask = category == cat_array
        for ix in numba.prange(x.T.shape[0]):
            regressors[mask, ix] = x.T[ix, mask].mean()
    return regressors


# get_resid: scverse/scanpy, src/scanpy/preprocessing/_simple.py @ fabadb9412c0d1cd9df9d9c2e95ac266d564ee18
#   function `get_resid`; licence BSD-3-Clause; Copyright (c) 2025 scverse®; Copyright (c) 2017 F. Alexander Wolf, P. Angerer, Theis Lab
#   changed: type annotations added in place of the project's own; the decorator @njit (fast_array_utils.numba.njit: numba.njit, parallel where the threading layer allows) removed
#   original signature: def get_resid(data: np.ndarray, regressor: np.ndarray, coeff: np.ndarray) -> np.ndarray:
def get_resid(
    data: Out[Float64[:, :]],
    regressor: Float64[:, :],
    coeff: Float64[:, :],
) -> Float64[:, :]:
    for i in numba.prange(data.shape[0]):
        data[i] -= regressor[i] @ coeff
    return data


# _sparse_nanmean_within_slot: scverse/scanpy, src/scanpy/tools/_score_genes.py @ fabadb9412c0d1cd9df9d9c2e95ac266d564ee18
#   function `_sparse_nanmean_within_slot`; licence BSD-3-Clause; Copyright (c) 2025 scverse®; Copyright (c) 2017 F. Alexander Wolf, P. Angerer, Theis Lab
#   changed: type annotations added in place of the project's own; the decorator @njit (fast_array_utils.numba.njit: numba.njit, parallel where the threading layer allows) removed
#   original signature: def _sparse_nanmean_within_slot(data: NDArray, indptr: NDArray, n_out: int, divisor: int) -> NDArray[np.float64]:
def _sparse_nanmean_within_slot(
    data: Float64[:], indptr: Int32[:], n_out: Int64, divisor: Int64
) -> Float64[:]:
    """Reduce within each compressed slot (e.g. per row for CSR), ignoring NaNs."""
    out = np.empty(n_out, dtype=np.float64)
    for i in numba.prange(n_out):
        total = np.float64(0)
        n_nan = 0
        for k in range(indptr[i], indptr[i + 1]):
            v = data[k]
            if np.isnan(v):
                n_nan += 1
            else:
                total += v
        out[i] = total / (divisor - n_nan)
    return out


# _sparse_nanmean_across_slots: scverse/scanpy, src/scanpy/tools/_score_genes.py @ fabadb9412c0d1cd9df9d9c2e95ac266d564ee18
#   function `_sparse_nanmean_across_slots`; licence BSD-3-Clause; Copyright (c) 2025 scverse®; Copyright (c) 2017 F. Alexander Wolf, P. Angerer, Theis Lab
#   changed: type annotations added in place of the project's own; the decorator @njit (fast_array_utils.numba.njit: numba.njit, parallel where the threading layer allows) removed
#   original signature: def _sparse_nanmean_across_slots(data: NDArray, indices: NDArray, n_out: int, divisor: int) -> NDArray[np.float64]:
def _sparse_nanmean_across_slots(
    data: Float64[:], indices: Int32[:], n_out: Int64, divisor: Int64
) -> Float64[:]:
    """Reduce across compressed slots (e.g. per column for CSR), ignoring NaNs."""
    total = np.zeros(n_out, dtype=np.float64)
    n_nan = np.zeros(n_out, dtype=np.int64)
    for k in range(data.shape[0]):
        v = data[k]
        j = indices[k]
        if np.isnan(v):
            n_nan[j] += 1
        else:
            total[j] += v
    out = np.empty(n_out, dtype=np.float64)
    for j in numba.prange(n_out):
        out[j] = total[j] / (divisor - n_nan[j])
    return out


# top_segment_proportions_sparse_csr: scverse/scanpy, src/scanpy/preprocessing/_qc.py @ fabadb9412c0d1cd9df9d9c2e95ac266d564ee18
#   function `top_segment_proportions_sparse_csr`; licence BSD-3-Clause; Copyright (c) 2025 scverse®; Copyright (c) 2017 F. Alexander Wolf, P. Angerer, Theis Lab
#   changed: type annotations added; the decorator @njit (fast_array_utils.numba.njit: numba.njit, parallel where the threading layer allows) removed
#   original signature: def top_segment_proportions_sparse_csr(data, indptr, ns):
def top_segment_proportions_sparse_csr(data: Float64[:], indptr: Int32[:], ns: Int64[:]) -> Float64[:, :]:
    # work around https://github.com/numba/numba/issues/5056
    indptr = indptr.astype(np.int64)
    ns = ns.astype(np.int64)
    ns = np.sort(ns)
    maxidx = ns[-1]
    sums = np.zeros((indptr.size - 1), dtype=data.dtype)
    values = np.zeros((indptr.size - 1, len(ns)), dtype=np.float64)
    # Just to keep it simple, as a dense matrix
    partitioned = np.zeros((indptr.size - 1, maxidx), dtype=data.dtype)
    for i in numba.prange(indptr.size - 1):
        start, end = indptr[i], indptr[i + 1]
        sums[i] = np.sum(data[start:end])
        if end - start <= maxidx:
            partitioned[i, : end - start] = data[start:end]
        elif (end - start) > maxidx:
            partitioned[i, :] = -(np.partition(-data[start:end], maxidx))[:maxidx]
        partitioned[i, :] = np.partition(partitioned[i, :], maxidx - ns)
    partitioned = partitioned[:, ::-1][:, : ns[-1]]
    acc = np.zeros((indptr.size - 1), dtype=data.dtype)
    prev = 0
    # can’t use enumerate due to https://github.com/numba/numba/issues/2625
    for j in range(ns.size):
        acc += partitioned[:, prev : ns[j]].sum(axis=1)
        values[:, j] = acc
        prev = ns[j]
    return values / sums.reshape((indptr.size - 1, 1))


# ---------------------------------------------------------------------------
# Call recipes, shaped as scanpy's callers pass them: per-group (count, mean,
# M2) statistics of 5 groups x 20 genes for the Chan combines (a (3, K, F)
# block pair for `_chan_combine_blocks`; `_vars_rest(group_counts, mean, m2,
# k)` with k = 4 selected groups, as `_RankGenes` calls it); dense chunks of
# integer-valued counts (cells x genes, with ties) for `rankdata` and the
# ranks it gives for `_tiecorrect`; `numpy_regress_out`'s data, regressor and
# coefficients for `get_resid`; category codes for
# `_create_regressor_categorical`; the CSR arrays (float64 data with some
# NaN, int32 indptr/indices) of `_sparse_nanmean(x, axis)`; and
# `top_segment_proportions_sparse_csr(mtx.data, mtx.indptr, np.array(ns))`.
# From fixed seeds.

def _stats(seed):
    rng = np.random.default_rng(seed)
    counts = rng.integers(3, 30, 5).astype(np.float64)
    mean = rng.normal(0.0, 1.0, (5, 20))
    m2 = rng.uniform(0.5, 2.0, (5, 20)) * (counts[:, None] - 1)
    return counts, mean, m2


def args__chan_combine():
    return (12.0, 0.4, 3.5, 7.0, -0.2, 1.25)


def args__chan_combine_blocks():
    ca, ma, sa = _stats(1)
    cb, mb, sb = _stats(2)
    a = np.stack([np.repeat(ca[:, None], 20, axis=1), ma, sa])
    b = np.stack([np.repeat(cb[:, None], 20, axis=1), mb, sb])
    b[0, 0, :3] = 0.0  # empty groups take the other side
    return (a, b)


def args__chan_accumulate():
    counts, mean, m2 = _stats(3)
    return (counts, mean, m2, 7, -1)


def args__vars_rest():
    counts, mean, m2 = _stats(4)
    return (counts, mean, m2, 4)


def _counts(seed, cells=40, genes=15):
    return np.random.default_rng(seed).poisson(2.0, (cells, genes)).astype(np.float64)


def args_rankdata():
    return (_counts(5),)


def args__tiecorrect():
    x = _counts(6)
    ranks = np.empty_like(x)
    for j in range(x.shape[1]):  # the ranks `rankdata` gives (average ranks of ties)
        col = x[:, j]
        ranks[:, j] = [(np.sum(col < v) + np.sum(col <= v) + 1) / 2 for v in col]
    return (ranks,)


def args__create_regressor_categorical():
    rng = np.random.default_rng(7)
    return (_counts(8), 3, rng.integers(0, 3, 40).astype(np.int64))


def args_get_resid():
    rng = np.random.default_rng(9)
    data = _counts(10)
    regressor = np.column_stack([np.ones(40), rng.normal(size=40)])
    coeff = np.linalg.inv(regressor.T @ regressor) @ (regressor.T @ data)
    return (data, regressor, coeff)


def _csr(seed, rows=30, cols=20, density=0.3, nan=0.05):
    rng = np.random.default_rng(seed)
    dense = rng.exponential(1.0, (rows, cols)) * (rng.random((rows, cols)) < density)
    dense[(dense > 0) & (rng.random((rows, cols)) < nan)] = np.nan
    nz = (dense != 0)
    indptr = np.concatenate(([0], np.cumsum(nz.sum(axis=1)))).astype(np.int32)
    indices = np.nonzero(nz)[1].astype(np.int32)
    return dense[nz], indptr, indices


def args__sparse_nanmean_within_slot():
    data, indptr, _ = _csr(11)
    return (data, indptr, 30, 20)


def args__sparse_nanmean_across_slots():
    data, _, indices = _csr(12)
    return (data, indices, 20, 30)


def args_top_segment_proportions_sparse_csr():
    data, indptr, _ = _csr(13, nan=0.0)
    return (data, indptr, np.array([2, 5]))
