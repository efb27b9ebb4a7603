"""Kernels of numbagg (https://github.com/numbagg/numbagg), BSD-3-Clause licence,
Copyright (c) 2008-2012, AQR Capital Management, LLC, Lambda Foundry, Inc. and
PyData Development Team, Copyright (c) 2014-2018, Stephan Hoyer and Numbagg
contributors."""
import numpy as np

from postyp import Bool, Float64, Int64, Out


# move_mean: numbagg/numbagg, numbagg/moving.py @ 988fa46754e01902f7bf3768e7c1d7a6e26ac593
#   function `move_mean`; licence BSD-3-Clause; Copyright (c) 2008-2012, AQR Capital Management, LLC, Lambda Foundry, Inc. and PyData Development Team; Copyright (c) 2014-2018, Stephan Hoyer and Numbagg contributors
#   changed: type annotations added in place of the project's own; the decorator @ndmove.wrap([...]) (numba.guvectorize, core signature (n),(),()->(n)) removed (called on one row, as the gufunc calls it)
#   original signature: def move_mean(a: T, window: int, min_count: int, out: T) -> None:
def move_mean(a: Float64[:], window: Int64, min_count: Int64, out: Out[Float64[:]]) -> None:
    asum = 0.0
    count = 0
    min_count = max(min_count, 1)

    # We previously had an initial loop which filled NaNs before `min_count`, but it
    # didn't have a discernible effect on performance.

    for i in range(window):
        ai = a[i]
        if not np.isnan(ai):
            asum += ai
            count += 1
        out[i] = asum / count if count >= min_count else np.nan

    for i in range(window, len(a)):
        ai = a[i]
        aold = a[i - window]

        ai_valid: bool = not np.isnan(ai)
        aold_valid: bool = not np.isnan(aold)

        # We previously had a single operation where both variables are valid, but it
        # caused some numerical instability for float32 values. For example the
        # `test_numerical_issues_float32_move_mean_1` test fails. While it had a 10%
        # performance impact relative to the previous if / elif, the current mode with
        # just two `if` branches is about 10% faster than the previous mode; maybe it
        # can execute both branches in parallel?

        # if ai_valid and aold_valid:
        #     asum += ai - aold
        # elif ...

        if aold_valid:
            asum -= aold
            count -= 1
        if ai_valid:
            asum += ai
            count += 1

        out[i] = asum / count if count >= min_count else np.nan


# move_sum: numbagg/numbagg, numbagg/moving.py @ 988fa46754e01902f7bf3768e7c1d7a6e26ac593
#   function `move_sum`; licence BSD-3-Clause; Copyright (c) 2008-2012, AQR Capital Management, LLC, Lambda Foundry, Inc. and PyData Development Team; Copyright (c) 2014-2018, Stephan Hoyer and Numbagg contributors
#   changed: type annotations added in place of the project's own; the decorator @ndmove.wrap([...]) (numba.guvectorize, core signature (n),(),()->(n)) removed (called on one row, as the gufunc calls it)
#   original signature: def move_sum(a: T, window: int, min_count: int, out: T) -> None:
def move_sum(a: Float64[:], window: Int64, min_count: Int64, out: Out[Float64[:]]) -> None:
    asum = 0.0
    count = 0

    # We don't generally split these up into two loops, but in `move_sum` & `move_mean`,
    # they're sufficiently different that it's worthwhile.

    for i in range(window):
        ai = a[i]
        if not np.isnan(ai):
            asum += ai
            count += 1
        out[i] = asum if count >= min_count else np.nan

    for i in range(window, len(a)):
        ai = a[i]
        aold = a[i - window]

        ai_valid: bool = not np.isnan(ai)
        aold_valid: bool = not np.isnan(aold)

        # Similar to the comment in `move_mean`, we previously had a single operation if
        # both were valid. That causes numerical instability for float32 values with a
        # window of 1.
        #
        # But possibly — particularly with a sum — the old and new values are likely to
        # be closer to each other than to the accumulator, so the numerical instability
        # is worse with this approach. When testing — for example with
        # `test_numerical_issues_float32_move_sum_100`, both approaches seem to fail
        # when increasing the multiplier at approximately the same rate.

        if ai_valid:
            asum += ai
            count += 1
        if aold_valid:
            asum -= aold
            count -= 1

        out[i] = asum if count >= min_count else np.nan


# move_std: numbagg/numbagg, numbagg/moving.py @ 988fa46754e01902f7bf3768e7c1d7a6e26ac593
#   function `move_std`; licence BSD-3-Clause; Copyright (c) 2008-2012, AQR Capital Management, LLC, Lambda Foundry, Inc. and PyData Development Team; Copyright (c) 2014-2018, Stephan Hoyer and Numbagg contributors
#   changed: type annotations added in place of the project's own; the decorator @ndmove.wrap([...]) (numba.guvectorize, core signature (n),(),()->(n)) removed (called on one row, as the gufunc calls it)
#   original signature: def move_std(a: T, window: int, min_count: int, out: T) -> None:
def move_std(a: Float64[:], window: Int64, min_count: Int64, out: Out[Float64[:]]) -> None:
    asum = 0.0
    asum_sq = 0.0
    count = 0
    min_count = max(min_count, 2)

    for i in range(len(a)):
        ai = a[i]

        if i >= window:
            aold = a[i - window]
            if not np.isnan(aold):
                asum -= aold
                asum_sq -= aold * aold
                count -= 1

        if not np.isnan(ai):
            asum += ai
            asum_sq += ai * ai
            count += 1

        if count >= min_count:
            variance = (asum_sq - asum**2 / count) / (count - 1)
            out[i] = np.sqrt(variance)
        else:
            out[i] = np.nan


# move_exp_nancount: numbagg/numbagg, numbagg/moving_exp.py @ 988fa46754e01902f7bf3768e7c1d7a6e26ac593
#   function `move_exp_nancount`; licence BSD-3-Clause; Copyright (c) 2008-2012, AQR Capital Management, LLC, Lambda Foundry, Inc. and PyData Development Team; Copyright (c) 2014-2018, Stephan Hoyer and Numbagg contributors
#   changed: type annotations added in place of the project's own; the decorator @ndmoveexp.wrap([...]) (numba.guvectorize, core signature (n),(n),()->(n)) removed (called on one row, as the gufunc calls it)
#   original signature: def move_exp_nancount(a: T, alpha: FloatArray, min_weight: float, out: T) -> None:
def move_exp_nancount(a: Float64[:], alpha: Float64[:], min_weight: Float64, out: Out[Float64[:]]) -> None:
    N: int = len(a)

    count = weight = 0.0

    for i in range(N):
        a_i = a[i]
        alpha_i = alpha[i]
        decay = 1.0 - alpha_i

        count *= decay
        weight *= decay

        if not np.isnan(a_i):
            count += 1
            weight += alpha_i

        if weight >= min_weight:
            out[i] = count
        else:
            out[i] = np.nan


# move_exp_nanmean: numbagg/numbagg, numbagg/moving_exp.py @ 988fa46754e01902f7bf3768e7c1d7a6e26ac593
#   function `move_exp_nanmean`; licence BSD-3-Clause; Copyright (c) 2008-2012, AQR Capital Management, LLC, Lambda Foundry, Inc. and PyData Development Team; Copyright (c) 2014-2018, Stephan Hoyer and Numbagg contributors
#   changed: type annotations added in place of the project's own; the decorator @ndmoveexp.wrap([...]) (numba.guvectorize, core signature (n),(n),()->(n)) removed (called on one row, as the gufunc calls it)
#   original signature: def move_exp_nanmean(a: T, alpha: FloatArray, min_weight: float, out: T) -> None:
def move_exp_nanmean(a: Float64[:], alpha: Float64[:], min_weight: Float64, out: Out[Float64[:]]) -> None:
    """
    Exponentially weighted moving mean
    """
    N: int = len(a)

    numer = denom = weight = 0.0

    for i in range(N):
        a_i = a[i]
        alpha_i = alpha[i]
        decay = 1.0 - alpha_i

        numer *= decay
        denom *= decay
        weight *= decay

        if not np.isnan(a_i):
            numer += a_i
            denom += 1.0
            weight += alpha_i

        if weight >= min_weight:
            out[i] = numer / denom
        else:
            out[i] = np.nan


# allnan: numbagg/numbagg, numbagg/funcs.py @ 988fa46754e01902f7bf3768e7c1d7a6e26ac593
#   function `allnan`; licence BSD-3-Clause; Copyright (c) 2008-2012, AQR Capital Management, LLC, Lambda Foundry, Inc. and PyData Development Team; Copyright (c) 2014-2018, Stephan Hoyer and Numbagg contributors
#   changed: type annotations added in place of the project's own; the decorator @ndaggregate.wrap(signature=[...]) (numba.guvectorize, core signature (n)->()) removed (called on one row, as the gufunc calls it)
#   original signature: def allnan(a: NumericArray, out: NumericArray) -> None:
def allnan(a: Float64[:], out: Out[Bool[:]]) -> None:
    out[0] = True
    for ai in a:
        if not np.isnan(ai):
            out[0] = False
            return


# nancount: numbagg/numbagg, numbagg/funcs.py @ 988fa46754e01902f7bf3768e7c1d7a6e26ac593
#   function `nancount`; licence BSD-3-Clause; Copyright (c) 2008-2012, AQR Capital Management, LLC, Lambda Foundry, Inc. and PyData Development Team; Copyright (c) 2014-2018, Stephan Hoyer and Numbagg contributors
#   changed: type annotations added in place of the project's own; the decorator @ndaggregate.wrap(signature=[...]) (numba.guvectorize, core signature (n)->()) removed (called on one row, as the gufunc calls it)
#   original signature: def nancount(a: T, out: T) -> None:
def nancount(a: Float64[:], out: Out[Int64[:]]) -> None:
    non_missing = 0
    for ai in a:
        if not np.isnan(ai):
            non_missing += 1
    out[0] = non_missing


# nanmean: numbagg/numbagg, numbagg/funcs.py @ 988fa46754e01902f7bf3768e7c1d7a6e26ac593
#   function `nanmean`; licence BSD-3-Clause; Copyright (c) 2008-2012, AQR Capital Management, LLC, Lambda Foundry, Inc. and PyData Development Team; Copyright (c) 2014-2018, Stephan Hoyer and Numbagg contributors
#   changed: type annotations added in place of the project's own; the decorator @ndaggregate.wrap(signature=[...]) (numba.guvectorize, core signature (n)->()) removed (called on one row, as the gufunc calls it)
#   original signature: def nanmean(a, out):
def nanmean(a: Float64[:], out: Out[Float64[:]]) -> None:
    asum = 0.0
    count = 0
    for ai in a:
        if not np.isnan(ai):
            asum += ai
            count += 1
    if count > 0:
        out[0] = asum / count
    else:
        out[0] = np.nan


# nanvar: numbagg/numbagg, numbagg/funcs.py @ 988fa46754e01902f7bf3768e7c1d7a6e26ac593
#   function `nanvar`; licence BSD-3-Clause; Copyright (c) 2008-2012, AQR Capital Management, LLC, Lambda Foundry, Inc. and PyData Development Team; Copyright (c) 2014-2018, Stephan Hoyer and Numbagg contributors
#   changed: type annotations added in place of the project's own; the decorator @ndaggregate.wrap(signature=[...], supports_ddof=True) (numba.guvectorize, core signature (n),()->()) removed (called on one row, as the gufunc calls it)
#   original signature: def nanvar(a: F, ddof: int, out: F) -> None:
def nanvar(a: Float64[:], ddof: Int64, out: Out[Float64[:]]) -> None:
    asum = 0
    count = 0
    for ai in a:
        if not np.isnan(ai):
            asum += ai
            count += 1
    if count > ddof:
        amean = asum / count
        asum = 0
        for ai in a:
            if not np.isnan(ai):
                ai -= amean
                asum += ai * ai
        out[0] = asum / (count - ddof)
    else:
        out[0] = np.nan


# group_nanmean: numbagg/numbagg, numbagg/grouped.py @ 988fa46754e01902f7bf3768e7c1d7a6e26ac593
#   function `group_nanmean`; licence BSD-3-Clause; Copyright (c) 2008-2012, AQR Capital Management, LLC, Lambda Foundry, Inc. and PyData Development Team; Copyright (c) 2014-2018, Stephan Hoyer and Numbagg contributors
#   changed: type annotations added in place of the project's own; the decorator @groupndreduce.wrap(supports_ints=False) (numba.guvectorize, core signature (n),(n),(z)) removed (called on one row, as the gufunc calls it)
#   original signature: def group_nanmean(values: GenericArray, labels: IntArray, out: GenericArray) -> None:
def group_nanmean(values: Float64[:], labels: Int64[:], out: Out[Float64[:]]) -> None:
    counts = np.zeros(out.shape, dtype=labels.dtype)
    out[:] = 0.0

    for indices in np.ndindex(values.shape):
        label = labels[indices]
        if label < 0:
            continue

        value = values[indices]
        if not np.isnan(value):
            counts[label] += 1
            out[label] += value

    for label in range(len(out)):
        count = counts[label]
        if count == 0:
            out[label] = np.nan
        else:
            out[label] /= count


# group_nansum: numbagg/numbagg, numbagg/grouped.py @ 988fa46754e01902f7bf3768e7c1d7a6e26ac593
#   function `group_nansum`; licence BSD-3-Clause; Copyright (c) 2008-2012, AQR Capital Management, LLC, Lambda Foundry, Inc. and PyData Development Team; Copyright (c) 2014-2018, Stephan Hoyer and Numbagg contributors
#   changed: type annotations added in place of the project's own; the decorator @groupndreduce.wrap() (numba.guvectorize, core signature (n),(n),(z)) removed (called on one row, as the gufunc calls it)
#   original signature: def group_nansum(values: GenericArray, labels: IntArray, out: GenericArray) -> None:
def group_nansum(values: Float64[:], labels: Int64[:], out: Out[Float64[:]]) -> None:
    out[:] = 0
    for indices in np.ndindex(values.shape):
        label = labels[indices]
        if label < 0:
            continue

        value = values[indices]
        if not np.isnan(value):
            out[label] += value

# ---------------------------------------------------------------------------
# Call recipes: one row of the arrays numbagg's tests and benchmarks pass
# (random floats with about a tenth NaN; move_* with window=10 and
# min_count=3 or 5; move_exp_* with the scalar alpha=0.5 broadcast to an
# array as `move_exp_nanmean(a, alpha=0.5)` does; group_* with labels in
# -1 (dropped) .. 4 and a zeroed output of 5 groups; the aggregations with
# the one-element output their gufuncs are given), from fixed seeds.

def _row(n=100, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(n)
    a[rng.random(n) < 0.1] = np.nan
    return a


def args_move_mean():
    return (_row(seed=1), 10, 3, np.empty(100))


def args_move_sum():
    return (_row(seed=2), 10, 3, np.empty(100))


def args_move_std():
    return (_row(seed=3), 10, 5, np.empty(100))


def args_move_exp_nancount():
    return (_row(seed=4), np.full(100, 0.5), 0.0, np.empty(100))


def args_move_exp_nanmean():
    return (_row(seed=5), np.full(100, 0.5), 0.0, np.empty(100))


def args_allnan():
    return (_row(seed=6), np.empty(1, dtype=np.bool_))


def args_nancount():
    return (_row(seed=7), np.empty(1, dtype=np.int64))


def args_nanmean():
    return (_row(seed=8), np.empty(1))


def args_nanvar():
    return (_row(seed=9), 1, np.empty(1))


def _labels(n=100, seed=0):
    return np.random.default_rng(seed).integers(-1, 5, n).astype(np.int64)


def args_group_nanmean():
    return (_row(seed=10), _labels(seed=11), np.zeros(5))


def args_group_nansum():
    return (_row(seed=12), _labels(seed=13), np.zeros(5))
