"""Kernels of aeon (https://github.com/aeon-toolkit/aeon), BSD 3-Clause licence,
Copyright (c) The aeon developers; Copyright (c) 2022 The sktime developers."""
import math

import numpy as np

from postyp import Bool, Float64, Int64


# _univariate_squared_distance: aeon-toolkit/aeon, aeon/distances/pointwise/_squared.py @ a101ddc8b35a65441609b45c9bcce5aeafa0c131
#   function `_univariate_squared_distance`; licence BSD-3-Clause; Copyright (c) The aeon developers, Copyright (c) 2022 The sktime developers (BSD 3-Clause)
#   changed: the project's annotations replaced by postyp types; Numba decorator removed (it was @njit(cache=True, fastmath=True))
#   original signature: def _univariate_squared_distance(x: np.ndarray, y: np.ndarray) -> float:
def _univariate_squared_distance(x: Float64[:], y: Float64[:]) -> Float64:
    distance = 0.0
    min_length = min(x.shape[0], y.shape[0])
    for i in range(min_length):
        difference = x[i] - y[i]
        distance += difference * difference
    return distance


# _squared_distance: aeon-toolkit/aeon, aeon/distances/pointwise/_squared.py @ a101ddc8b35a65441609b45c9bcce5aeafa0c131
#   function `_squared_distance`; licence BSD-3-Clause; Copyright (c) The aeon developers, Copyright (c) 2022 The sktime developers (BSD 3-Clause)
#   changed: the project's annotations replaced by postyp types; Numba decorator removed (it was @njit(cache=True, fastmath=True))
#   original signature: def _squared_distance(x: np.ndarray, y: np.ndarray) -> float:
def _squared_distance(x: Float64[:, :], y: Float64[:, :]) -> Float64:
    distance = 0.0
    min_val = min(x.shape[0], y.shape[0])
    for i in range(min_val):
        distance += _univariate_squared_distance(x[i], y[i])
    return distance


# _univariate_manhattan_distance: aeon-toolkit/aeon, aeon/distances/pointwise/_manhattan.py @ a101ddc8b35a65441609b45c9bcce5aeafa0c131
#   function `_univariate_manhattan_distance`; licence BSD-3-Clause; Copyright (c) The aeon developers, Copyright (c) 2022 The sktime developers (BSD 3-Clause)
#   changed: the project's annotations replaced by postyp types; Numba decorator removed (it was @njit(cache=True, fastmath=True))
#   original signature: def _univariate_manhattan_distance(x: np.ndarray, y: np.ndarray) -> float:
def _univariate_manhattan_distance(x: Float64[:], y: Float64[:]) -> Float64:
    distance = 0.0
    min_length = min(x.shape[0], y.shape[0])
    for i in range(min_length):
        difference = x[i] - y[i]
        distance += abs(difference)
    return distance


# _univariate_minkowski_distance: aeon-toolkit/aeon, aeon/distances/pointwise/_minkowski.py @ a101ddc8b35a65441609b45c9bcce5aeafa0c131
#   function `_univariate_minkowski_distance`; licence BSD-3-Clause; Copyright (c) The aeon developers, Copyright (c) 2022 The sktime developers (BSD 3-Clause)
#   changed: the project's annotations replaced by postyp types; Numba decorator removed (it was @njit(cache=True, fastmath=True))
#   original signature: def _univariate_minkowski_distance(x: np.ndarray, y: np.ndarray, p: float, w: np.ndarray) -> float:
def _univariate_minkowski_distance(
    x: Float64[:], y: Float64[:], p: Float64, w: Float64[:]
) -> Float64:
    min_length = min(x.shape[0], y.shape[0])

    x = x[:min_length]
    y = y[:min_length]
    w = w[:min_length]

    dist = np.sum(w * (np.abs(x - y) ** p))

    return float(dist ** (1.0 / p))


# _dtw_distance: aeon-toolkit/aeon, aeon/distances/elastic/_dtw.py @ a101ddc8b35a65441609b45c9bcce5aeafa0c131
#   function `_dtw_distance`; licence BSD-3-Clause; Copyright (c) The aeon developers, Copyright (c) 2022 The sktime developers (BSD 3-Clause)
#   changed: the project's annotations replaced by postyp types; Numba decorator removed (it was @njit(cache=True, fastmath=True))
#   original signature: def _dtw_distance(x: np.ndarray, y: np.ndarray, bounding_matrix: np.ndarray) -> float:
def _dtw_distance(x: Float64[:, :], y: Float64[:, :], bounding_matrix: Bool[:, :]) -> Float64:
    """Compute the DTW distance between two time series.

    This function is optimized for memory usage by using a two-row buffer
    (O(min(N, M)) space complexity) instead of allocating the full cost matrix (O(NM)).
    """
    # Optimization: Ensure we iterate over the larger dimension to minimize the
    # size of the cost vectors (prev and curr), which are allocated based on y.
    # If x is smaller than y, we swap them to make y the smaller one.
    if x.shape[1] < y.shape[1]:
        x, y = y, x
        # The bounding matrix must also be transposed to match the swapped series
        bounding_matrix = bounding_matrix.T

    x_size = x.shape[1]
    y_size = y.shape[1]

    # prev represents the previous row (i-1), curr represents the current row (i)
    # The size is y_size + 1 to handle the boundary condition at index 0
    prev = np.full(y_size + 1, np.inf)
    curr = np.full(y_size + 1, np.inf)

    # Initial condition: distance at (0, 0) is 0
    prev[0] = 0.0

    for i in range(x_size):
        # Boundary condition: The cell to the left of the first column is infinity
        curr[0] = np.inf

        for j in range(y_size):
            if bounding_matrix[i, j]:
                cost = _univariate_squared_distance(x[:, i], y[:, j])

                # DTW recurrence:
                # prev[j]   corresponds to matrix[i, j]     (Diagonal)
                # prev[j+1] corresponds to matrix[i, j+1]   (Top)
                # curr[j]   corresponds to matrix[i+1, j]   (Left)
                min_cost = min(
                    prev[j],  # Diagonal
                    prev[j + 1],  # Top
                    curr[j],  # Left
                )

                curr[j + 1] = cost + min_cost
            else:
                curr[j + 1] = np.inf

        # Move current row to previous row for the next iteration
        prev[:] = curr[:]

    return prev[y_size]


# _dtw_distance_sakoe_equal: aeon-toolkit/aeon, aeon/distances/elastic/_dtw.py @ a101ddc8b35a65441609b45c9bcce5aeafa0c131
#   function `_dtw_distance_sakoe_equal`; licence BSD-3-Clause; Copyright (c) The aeon developers, Copyright (c) 2022 The sktime developers (BSD 3-Clause)
#   changed: the project's annotations replaced by postyp types; Numba decorator removed (it was @njit(cache=True, fastmath=True))
#   original signature: def _dtw_distance_sakoe_equal(x: np.ndarray, y: np.ndarray, thickness: int) -> float:
def _dtw_distance_sakoe_equal(x: Float64[:, :], y: Float64[:, :], thickness: Int64) -> Float64:
    """Banded DTW for equal-length series with inline Sakoe-Chiba row bounds.

    Same recurrence and buffer discipline as _dtw_distance_banded, but the band
    [max(0, i - thickness), min(n, i + thickness + 1)) is computed per row instead
    of stored, eliminating the bounds arrays.
    """
    n = x.shape[1]
    prev = np.full(n + 1, np.inf)
    curr = np.full(n + 1, np.inf)
    prev[0] = 0.0

    # Univariate fast path: read scalars from flat 1D views instead of creating two
    # strided column views and running the channel loop for every DP cell.
    univariate = x.shape[0] == 1 and y.shape[0] == 1
    x0 = x[0]
    y0 = y[0]

    for i in range(n):
        start = i - thickness
        if start < 0:
            start = 0
        end = i + thickness + 1
        if end > n:
            end = n
        curr[start] = np.inf

        if univariate:
            xi = x0[i]
            for j in range(start, end):
                difference = xi - y0[j]
                curr[j + 1] = difference * difference + min(
                    prev[j], prev[j + 1], curr[j]
                )
        else:
            for j in range(start, end):
                cost = _univariate_squared_distance(x[:, i], y[:, j])
                curr[j + 1] = cost + min(prev[j], prev[j + 1], curr[j])

        prev, curr = curr, prev

    return prev[n]


# _dtw_cost_matrix: aeon-toolkit/aeon, aeon/distances/elastic/_dtw.py @ a101ddc8b35a65441609b45c9bcce5aeafa0c131
#   function `_dtw_cost_matrix`; licence BSD-3-Clause; Copyright (c) The aeon developers, Copyright (c) 2022 The sktime developers (BSD 3-Clause)
#   changed: the project's annotations replaced by postyp types; Numba decorator removed (it was @njit(cache=True, fastmath=True))
#   original signature: def _dtw_cost_matrix(x: np.ndarray, y: np.ndarray, bounding_matrix: np.ndarray) -> np.ndarray:
def _dtw_cost_matrix(
    x: Float64[:, :], y: Float64[:, :], bounding_matrix: Bool[:, :]
) -> Float64[:, :]:
    x_size = x.shape[1]
    y_size = y.shape[1]
    cost_matrix = np.full((x_size + 1, y_size + 1), np.inf)
    cost_matrix[0, 0] = 0.0

    for i in range(x_size):
        for j in range(y_size):
            if bounding_matrix[i, j]:
                cost_matrix[i + 1, j + 1] = _univariate_squared_distance(
                    x[:, i], y[:, j]
                ) + min(
                    cost_matrix[i, j + 1],
                    cost_matrix[i + 1, j],
                    cost_matrix[i, j],
                )

    return cost_matrix[1:, 1:]


# _itakura_parallelogram: aeon-toolkit/aeon, aeon/distances/elastic/_bounding_matrix.py @ a101ddc8b35a65441609b45c9bcce5aeafa0c131
#   function `_itakura_parallelogram`; licence BSD-3-Clause; Copyright (c) The aeon developers, Copyright (c) 2022 The sktime developers (BSD 3-Clause)
#   changed: the project's annotations replaced by postyp types; Numba decorator removed (it was @njit(cache=True)); result annotated Bool[:, :], the matrix it returns
#   original signature: def _itakura_parallelogram(x_size: int, y_size: int, max_slope_percent: float):
def _itakura_parallelogram(x_size: Int64, y_size: Int64, max_slope_percent: Float64) -> Bool[:, :]:
    """Itakura parallelogram bounding matrix.

    This code was adapted from the tslearn and pyts functions.

    pyts code:
    https://pyts.readthedocs.io/en/latest/_modules/pyts/metrics/dtw.html#itakura_parallelogram
    Copyright (c) 2018, Johann Faouzi and pyts contributors, BSD-3
    tslearn code (line 974):
    https://github.com/tslearn-team/tslearn/blob/main/tslearn/metrics/dtw_variants.py
    Copyright (c) 2017, Romain Tavenard, BSD-2
    """
    one_percent = min(x_size, y_size) / 100
    max_slope = math.floor((max_slope_percent * one_percent) * 100)
    min_slope = 1 / float(max_slope)
    max_slope *= float(y_size - 1) / float(x_size - 2)
    max_slope = max(max_slope, 1.0)

    min_slope *= float(y_size - 2) / float(x_size - 1)
    min_slope = min(min_slope, 1.0)

    centered_scale = np.arange(x_size) - x_size + 1

    lower_bound = np.empty(x_size, dtype=np.float64)
    upper_bound = np.empty(x_size, dtype=np.float64)

    for i in range(x_size):
        lb0 = min_slope * i
        lb1 = max_slope * centered_scale[i] + y_size - 1
        lower_bound[i] = math.ceil(max(round(lb0, 2), round(lb1, 2)))

        ub0 = max_slope * i + 1
        ub1 = min_slope * centered_scale[i] + y_size
        upper_bound[i] = math.floor(min(round(ub0, 2), round(ub1, 2)))

    if max_slope == 1.0:
        if y_size > x_size:
            for i in range(x_size - 1):
                upper_bound[i] = lower_bound[i + 1]
        else:
            for i in range(x_size):
                upper_bound[i] = lower_bound[i] + 1

    for i in range(x_size):
        if lower_bound[i] < 0:
            lower_bound[i] = 0
        if lower_bound[i] > y_size:
            lower_bound[i] = y_size
        if upper_bound[i] < 0:
            upper_bound[i] = 0
        if upper_bound[i] > y_size:
            upper_bound[i] = y_size

    bounding_matrix = np.empty((x_size, y_size), dtype=np.bool_)
    for i in range(x_size):
        for j in range(y_size):
            bounding_matrix[i, j] = False

    for i in range(x_size):
        start = int(lower_bound[i])
        end = int(upper_bound[i])
        for j in range(start, end):
            bounding_matrix[i, j] = True

    return bounding_matrix


# _sakoe_chiba_bounds: aeon-toolkit/aeon, aeon/distances/elastic/_bounding_matrix.py @ a101ddc8b35a65441609b45c9bcce5aeafa0c131
#   function `_sakoe_chiba_bounds`; licence BSD-3-Clause; Copyright (c) The aeon developers, Copyright (c) 2022 The sktime developers (BSD 3-Clause)
#   changed: the project's annotations replaced by postyp types; Numba decorator removed (it was @njit(cache=True)); no return annotation (it returns a tuple, which postyp cannot spell)
#   original signature: def _sakoe_chiba_bounds(x_size: int, y_size: int, radius_percent: float):
def _sakoe_chiba_bounds(x_size: Int64, y_size: Int64, radius_percent: Float64):
    """Row bounds reproducing ``_sakoe_chiba_bounding`` exactly, without the matrix.

    Walks the same interpolated-diagonal steps as the dense construction; a forward
    pass records the first column each row is covered at (j_start), a backward pass
    the last (j_end). Two-pointer passes make this O(x_size + y_size).
    """
    thickness = int(radius_percent * min(x_size, y_size))
    max_size = max(x_size, y_size) + 1
    j_start = np.zeros(x_size, dtype=np.int32)
    j_end = np.full(x_size, y_size, dtype=np.int32)

    if x_size <= y_size:
        # Dense version marks rows [x_index - thickness, x_index + thickness + 1)
        # at column y_index for each step.
        next_row = 0
        for step in range(max_size):
            x_index = math.floor((step / max_size) * x_size)
            y_index = math.floor((step / max_size) * y_size)
            hi = min(x_size, x_index + thickness + 1)
            while next_row < hi:
                j_start[next_row] = y_index
                next_row += 1
        prev_row = x_size - 1
        for step in range(max_size - 1, -1, -1):
            x_index = math.floor((step / max_size) * x_size)
            y_index = math.floor((step / max_size) * y_size)
            lo = max(0, x_index - thickness)
            while prev_row >= lo:
                j_end[prev_row] = y_index + 1
                prev_row -= 1
    else:
        # Dense version transposes the swapped-size construction: row i is covered
        # on columns [a_index - thickness, a_index + thickness + 1) for each step
        # whose b_index == i.
        next_row = 0
        for step in range(max_size):
            a_index = math.floor((step / max_size) * y_size)
            b_index = math.floor((step / max_size) * x_size)
            while next_row <= b_index:
                j_start[next_row] = max(0, a_index - thickness)
                next_row += 1
        prev_row = x_size - 1
        for step in range(max_size - 1, -1, -1):
            a_index = math.floor((step / max_size) * y_size)
            b_index = math.floor((step / max_size) * x_size)
            while prev_row >= b_index:
                j_end[prev_row] = min(y_size, a_index + thickness + 1)
                prev_row -= 1

    return j_start, j_end


# _sakoe_chiba_bounding: aeon-toolkit/aeon, aeon/distances/elastic/_bounding_matrix.py @ a101ddc8b35a65441609b45c9bcce5aeafa0c131
#   function `_sakoe_chiba_bounding`; licence BSD-3-Clause; Copyright (c) The aeon developers, Copyright (c) 2022 The sktime developers (BSD 3-Clause)
#   changed: the project's annotations replaced by postyp types; Numba decorator removed (it was @njit(cache=True))
#   original signature: def _sakoe_chiba_bounding(x_size: int, y_size: int, radius_percent: float) -> np.ndarray:
def _sakoe_chiba_bounding(
    x_size: Int64, y_size: Int64, radius_percent: Float64
) -> Bool[:, :]:

    if x_size > y_size:
        return _sakoe_chiba_bounding(y_size, x_size, radius_percent).T

    matrix = np.full((x_size, y_size), False)  # Create a matrix filled with False

    max_size = max(x_size, y_size) + 1

    shortest_dimension = min(x_size, y_size)
    thickness = int(radius_percent * shortest_dimension)
    for step in range(max_size):
        x_index = math.floor((step / max_size) * x_size)
        y_index = math.floor((step / max_size) * y_size)

        upper = max(0, (x_index - thickness))
        lower = min(x_size, (x_index + thickness + 1))

        matrix[upper:lower, y_index] = True

    return matrix


# ---- call recipes (not part of the kernels) ----
# aeon's distance functions reshape a univariate series to (1, n_timepoints)
# and pass (n_channels, n_timepoints) arrays to the 2-D kernels; the bounding
# matrix is create_bounding_matrix(x.shape[1], y.shape[1], window), a Boolean
# (x_size, y_size) matrix (np.full(..., True) when window is None).

def args__univariate_squared_distance():
    rng = np.random.default_rng(0)
    return (rng.standard_normal(20), rng.standard_normal(20))

def args__squared_distance():
    rng = np.random.default_rng(1)
    return (rng.standard_normal((3, 20)), rng.standard_normal((3, 20)))

def args__univariate_manhattan_distance():
    rng = np.random.default_rng(2)
    return (rng.standard_normal(20), rng.standard_normal(18))

def args__univariate_minkowski_distance():
    rng = np.random.default_rng(3)
    x = rng.standard_normal(20)
    y = rng.standard_normal(20)
    w = rng.uniform(0.0, 1.0, 20)
    return (x, y, 3.0, w)

def args__dtw_distance():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 20))
    y = rng.standard_normal((2, 24))
    # create_bounding_matrix(20, 24, window=0.2)
    bounding_matrix = _sakoe_chiba_bounding(20, 24, 0.2)
    return (x, y, bounding_matrix)

def args__dtw_distance_sakoe_equal():
    rng = np.random.default_rng(5)
    x = rng.standard_normal(30).reshape((1, 30))
    y = rng.standard_normal(30).reshape((1, 30))
    # _dtw_distance_direct: thickness = int(window * y_size), window=0.2
    return (x, y, int(0.2 * 30))

def args__dtw_cost_matrix():
    rng = np.random.default_rng(6)
    x = rng.standard_normal(12).reshape((1, 12))
    y = rng.standard_normal(10).reshape((1, 10))
    return (x, y, np.full((12, 10), True))

def args__itakura_parallelogram():
    return (20, 20, 0.5)

def args__sakoe_chiba_bounds():
    return (20, 24, 0.2)

def args__sakoe_chiba_bounding():
    # x_size > y_size: the kernel transposes its own result for (20, 24)
    return (24, 20, 0.2)
