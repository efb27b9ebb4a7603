"""Kernels of pandas (https://github.com/pandas-dev/pandas), BSD-3-Clause licence,
Copyright (c) 2008-2011 AQR Capital Management, LLC, Copyright (c) 2011-2012,
Lambda Foundry, Inc. and PyData Development Team."""
import numpy as np

from postyp import Bool, Float64, Int64


# is_monotonic_increasing: pandas-dev/pandas, pandas/core/_numba/kernels/shared.py @ e394c536ed3f35b5b6585ac26cdd1bb86fec1ffe
#   function `is_monotonic_increasing`; licence BSD-3-Clause; Copyright (c) 2008-2011 AQR Capital Management, LLC; Copyright (c) 2011-2012, Lambda Foundry, Inc. and PyData Development Team
#   changed: type annotations added in place of the project's own (Numba's signature `numba.boolean(numba.int64[:])`); Numba decorator removed (it was @numba.jit(numba.boolean(numba.int64[:]), nopython=True, nogil=True, parallel=False), with a `# type: ignore[misc]` comment)
#   original signature: def is_monotonic_increasing(bounds: np.ndarray) -> bool:
def is_monotonic_increasing(bounds: Int64[:]) -> Bool:
    """Check if int64 values are monotonically increasing."""
    n = len(bounds)
    if n < 2:
        return True
    prev = bounds[0]
    for i in range(1, n):
        cur = bounds[i]
        if cur < prev:
            return False
        prev = cur
    return True


# add_mean: pandas-dev/pandas, pandas/core/_numba/kernels/mean_.py @ 645b08b013f2cef8cdc17af4a85f36988f28a202
#   function `add_mean`; licence BSD-3-Clause; Copyright (c) 2008-2011 AQR Capital Management, LLC; Copyright (c) 2011-2012, Lambda Foundry, Inc. and PyData Development Team
#   changed: type annotations added in place of the project's own (a tuple result: no annotation); Numba decorator removed (it was @numba.jit(nopython=True, nogil=True, parallel=False))
#   original signature: def add_mean(val: float, nobs: int, sum_x: float, neg_ct: int, compensation: float, num_consecutive_same_value: int, prev_value: float) -> tuple[int, float, int, float, int, float]:
def add_mean(
    val: Float64,
    nobs: Int64,
    sum_x: Float64,
    neg_ct: Int64,
    compensation: Float64,
    num_consecutive_same_value: Int64,
    prev_value: Float64,
):
    if not np.isnan(val):
        nobs += 1
        y = val - compensation
        t = sum_x + y
        compensation = t - sum_x - y
        sum_x = t
        if val < 0:
            neg_ct += 1

        if val == prev_value:
            num_consecutive_same_value += 1
        else:
            num_consecutive_same_value = 1
        prev_value = val

    return nobs, sum_x, neg_ct, compensation, num_consecutive_same_value, prev_value


# remove_mean: pandas-dev/pandas, pandas/core/_numba/kernels/mean_.py @ 645b08b013f2cef8cdc17af4a85f36988f28a202
#   function `remove_mean`; licence BSD-3-Clause; Copyright (c) 2008-2011 AQR Capital Management, LLC; Copyright (c) 2011-2012, Lambda Foundry, Inc. and PyData Development Team
#   changed: type annotations added in place of the project's own (a tuple result: no annotation); Numba decorator removed (it was @numba.jit(nopython=True, nogil=True, parallel=False))
#   original signature: def remove_mean(val: float, nobs: int, sum_x: float, neg_ct: int, compensation: float) -> tuple[int, float, int, float]:
def remove_mean(
    val: Float64, nobs: Int64, sum_x: Float64, neg_ct: Int64, compensation: Float64
):
    if not np.isnan(val):
        nobs -= 1
        y = -val - compensation
        t = sum_x + y
        compensation = t - sum_x - y
        sum_x = t
        if val < 0:
            neg_ct -= 1
    return nobs, sum_x, neg_ct, compensation


# sliding_mean: pandas-dev/pandas, pandas/core/_numba/kernels/mean_.py @ 645b08b013f2cef8cdc17af4a85f36988f28a202
#   function `sliding_mean`; licence BSD-3-Clause; Copyright (c) 2008-2011 AQR Capital Management, LLC; Copyright (c) 2011-2012, Lambda Foundry, Inc. and PyData Development Team
#   changed: type annotations added in place of the project's own, except `result_dtype: np.dtype`, kept as the authors wrote it (postyp has no type of a dtype); a tuple result: no annotation; Numba decorator removed (it was @numba.jit(nopython=True, nogil=True, parallel=False))
#   original signature: def sliding_mean(values: np.ndarray, result_dtype: np.dtype, start: np.ndarray, end: np.ndarray, min_periods: int, skipna: bool = True) -> tuple[np.ndarray, list[int]]:
def sliding_mean(
    values: Float64[:],
    result_dtype: np.dtype,
    start: Int64[:],
    end: Int64[:],
    min_periods: Int64,
    skipna: Bool = True,
):
    N = len(start)
    nobs = 0
    sum_x = 0.0
    neg_ct = 0
    compensation_add = 0.0
    compensation_remove = 0.0

    is_monotonic_increasing_bounds = is_monotonic_increasing(
        start
    ) and is_monotonic_increasing(end)

    output = np.empty(N, dtype=result_dtype)

    for i in range(N):
        s = start[i]
        e = end[i]
        if i == 0 or not is_monotonic_increasing_bounds:
            prev_value = values[s]
            num_consecutive_same_value = 0

            for j in range(s, e):
                val = values[j]
                (
                    nobs,
                    sum_x,
                    neg_ct,
                    compensation_add,
                    num_consecutive_same_value,
                    prev_value,
                ) = add_mean(
                    val,
                    nobs,
                    sum_x,
                    neg_ct,
                    compensation_add,
                    num_consecutive_same_value,
                    prev_value,  # pyright: ignore[reportArgumentType]
                )
        else:
            for j in range(start[i - 1], s):
                val = values[j]
                nobs, sum_x, neg_ct, compensation_remove = remove_mean(
                    val, nobs, sum_x, neg_ct, compensation_remove
                )

            for j in range(end[i - 1], e):
                val = values[j]
                (
                    nobs,
                    sum_x,
                    neg_ct,
                    compensation_add,
                    num_consecutive_same_value,
                    prev_value,
                ) = add_mean(
                    val,
                    nobs,
                    sum_x,
                    neg_ct,
                    compensation_add,
                    num_consecutive_same_value,
                    prev_value,  # pyright: ignore[reportArgumentType]
                )

        if nobs >= min_periods and nobs > 0:
            result = sum_x / nobs
            if num_consecutive_same_value >= nobs:
                result = prev_value
            elif neg_ct == 0 and result < 0:
                result = 0
            elif neg_ct == nobs and result > 0:
                result = 0
        else:
            result = np.nan

        output[i] = result

        if not is_monotonic_increasing_bounds:
            nobs = 0
            sum_x = 0.0
            neg_ct = 0
            compensation_remove = 0.0

    # na_position is empty list since float64 can already hold nans
    # Do list comprehension, since numba cannot figure out that na_pos is
    # empty list of ints on its own
    na_pos = [0 for i in range(0)]
    return output, na_pos


# add_var: pandas-dev/pandas, pandas/core/_numba/kernels/var_.py @ 868b737f63f1c8184a3197bd437cc1a1c576c18f
#   function `add_var`; licence BSD-3-Clause; Copyright (c) 2008-2011 AQR Capital Management, LLC; Copyright (c) 2011-2012, Lambda Foundry, Inc. and PyData Development Team
#   changed: type annotations added in place of the project's own (a tuple result: no annotation); Numba decorator removed (it was @numba.jit(nopython=True, nogil=True, parallel=False))
#   original signature: def add_var(val: float, nobs: int, mean_x: float, ssqdm_x: float, compensation: float, num_consecutive_same_value: int, prev_value: float) -> tuple[int, float, float, float, int, float]:
def add_var(
    val: Float64,
    nobs: Int64,
    mean_x: Float64,
    ssqdm_x: Float64,
    compensation: Float64,
    num_consecutive_same_value: Int64,
    prev_value: Float64,
):
    if not np.isnan(val):
        if val == prev_value:
            num_consecutive_same_value += 1
        else:
            num_consecutive_same_value = 1
        prev_value = val

        nobs += 1
        prev_mean = mean_x - compensation
        y = val - compensation
        t = y - mean_x
        compensation = t + mean_x - y
        delta = t
        if nobs:
            mean_x += delta / nobs
        else:
            mean_x = 0
        ssqdm_x += (val - prev_mean) * (val - mean_x)
    return nobs, mean_x, ssqdm_x, compensation, num_consecutive_same_value, prev_value


# remove_var: pandas-dev/pandas, pandas/core/_numba/kernels/var_.py @ 868b737f63f1c8184a3197bd437cc1a1c576c18f
#   function `remove_var`; licence BSD-3-Clause; Copyright (c) 2008-2011 AQR Capital Management, LLC; Copyright (c) 2011-2012, Lambda Foundry, Inc. and PyData Development Team
#   changed: type annotations added in place of the project's own (a tuple result: no annotation); Numba decorator removed (it was @numba.jit(nopython=True, nogil=True, parallel=False))
#   original signature: def remove_var(val: float, nobs: int, mean_x: float, ssqdm_x: float, compensation: float) -> tuple[int, float, float, float]:
def remove_var(
    val: Float64, nobs: Int64, mean_x: Float64, ssqdm_x: Float64, compensation: Float64
):
    if not np.isnan(val):
        nobs -= 1
        if nobs:
            prev_mean = mean_x - compensation
            y = val - compensation
            t = y - mean_x
            compensation = t + mean_x - y
            delta = t
            mean_x -= delta / nobs
            ssqdm_x -= (val - prev_mean) * (val - mean_x)
        else:
            mean_x = 0
            ssqdm_x = 0
    return nobs, mean_x, ssqdm_x, compensation


# sliding_var: pandas-dev/pandas, pandas/core/_numba/kernels/var_.py @ 868b737f63f1c8184a3197bd437cc1a1c576c18f
#   function `sliding_var`; licence BSD-3-Clause; Copyright (c) 2008-2011 AQR Capital Management, LLC; Copyright (c) 2011-2012, Lambda Foundry, Inc. and PyData Development Team
#   changed: type annotations added in place of the project's own; Numba decorator removed (it was @numba.jit(nopython=True, nogil=True, parallel=False))
#   original signature: def sliding_var(values: np.ndarray, start: np.ndarray, end: np.ndarray, min_periods: int, ddof: int = 1) -> np.ndarray:
def sliding_var(
    values: Float64[:],
    start: Int64[:],
    end: Int64[:],
    min_periods: Int64,
    ddof: Int64 = 1,
) -> Float64[:]:
    N = len(start)
    nobs = 0
    mean_x = 0.0
    ssqdm_x = 0.0
    compensation_add = 0.0
    compensation_remove = 0.0

    min_periods = max(min_periods, 1)
    is_monotonic_increasing_bounds = is_monotonic_increasing(
        start
    ) and is_monotonic_increasing(end)

    output = np.empty(N, dtype=np.float64)

    for i in range(N):
        s = start[i]
        e = end[i]
        if i == 0 or not is_monotonic_increasing_bounds:
            prev_value = values[s]
            num_consecutive_same_value = 0

            for j in range(s, e):
                val = values[j]
                (
                    nobs,
                    mean_x,
                    ssqdm_x,
                    compensation_add,
                    num_consecutive_same_value,
                    prev_value,
                ) = add_var(
                    val,
                    nobs,
                    mean_x,
                    ssqdm_x,
                    compensation_add,
                    num_consecutive_same_value,
                    prev_value,
                )
        else:
            for j in range(start[i - 1], s):
                val = values[j]
                nobs, mean_x, ssqdm_x, compensation_remove = remove_var(
                    val, nobs, mean_x, ssqdm_x, compensation_remove
                )

            for j in range(end[i - 1], e):
                val = values[j]
                (
                    nobs,
                    mean_x,
                    ssqdm_x,
                    compensation_add,
                    num_consecutive_same_value,
                    prev_value,
                ) = add_var(
                    val,
                    nobs,
                    mean_x,
                    ssqdm_x,
                    compensation_add,
                    num_consecutive_same_value,
                    prev_value,
                )

        if nobs >= min_periods and nobs > ddof:
            if nobs == 1 or num_consecutive_same_value >= nobs:
                result = 0.0
            else:
                result = ssqdm_x / (nobs - ddof)
        else:
            result = np.nan

        output[i] = result

        if not is_monotonic_increasing_bounds:
            nobs = 0
            mean_x = 0.0
            ssqdm_x = 0.0
            compensation_remove = 0.0

    return output


# ---------------------------------------------------------------------------
# Call recipes: what `Series.rolling(window, min_periods).mean(engine="numba")`
# and `.var(engine="numba")` pass (a float64 column with NaNs, the int64
# window bounds of pandas' FixedWindowIndexer, `min_periods`, the float64
# result dtype), and the running state the sliding kernels hand their add_/
# remove_ helpers, from fixed seeds.

def _values(n=50, seed=0):
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(n)
    v[rng.random(n) < 0.1] = np.nan
    v[20:24] = 1.5  # a run of equal values (num_consecutive_same_value)
    return v


def _fixed_window_bounds(num_values, window_size):
    # pandas.core.indexers.objects.FixedWindowIndexer.get_window_bounds (center=False, closed="right")
    end = np.arange(1, num_values + 1, dtype="int64")
    start = end - window_size
    start = np.clip(start, 0, num_values)
    return start, end


def args_is_monotonic_increasing():
    return (_fixed_window_bounds(50, 5)[0],)


def args_add_mean():
    return (0.75, 3, 1.25, 1, 1e-17, 1, 0.75)


def args_remove_mean():
    return (-0.5, 4, 1.25, 2, -2e-17)


def args_sliding_mean():
    start, end = _fixed_window_bounds(50, 5)
    return (_values(seed=1), np.dtype(np.float64), start, end, 3, True)


def args_add_var():
    return (0.75, 3, 0.4, 1.3, 1e-17, 1, 0.2)


def args_remove_var():
    return (-0.5, 4, 0.4, 1.3, -2e-17)


def args_sliding_var():
    start, end = _fixed_window_bounds(50, 5)
    return (_values(seed=2), start, end, 3, 1)
