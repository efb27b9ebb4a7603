"""Kernels of Datashader (https://github.com/holoviz/datashader), BSD-3-Clause
licence, Copyright (c) 2015, Continuum Analytics, Inc. and contributors.
`datashader/resampling.py` was adapted by Datashader from CAB-LAB/gridtools,
MIT licence, Copyright (c) 2016, Brockmann Consult GmbH and contributors."""
import types

import numpy as np

from postyp import Bool, Float32, Float64, Int64, Out, UInt16, UInt32

# datashader does `import numba as nb` and calls `nb.prange`: a module standing
# in for it, with `prange` as `range` (Numba is not needed to run the corpus)
nb = types.ModuleType("numba")
nb.prange = range

# datashader/resampling.py: `from numba import prange`
prange = range

# datashader/resampling.py
_EPS = 1e-10


# isnull: holoviz/datashader, datashader/utils.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `isnull`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added; the decorator @ngjit (numba.jit(nopython=True, nogil=True)) removed (Numba compiles it per argument type; annotated for the float aggregates the in-place combines below pass)
#   original signature: def isnull(val):
def isnull(val: Float64) -> Bool:
    """
    Equivalent to isnan for floats, but also numba compatible with integers
    """
    return not (val <= 0 or val > 0)


# nanmax_in_place: holoviz/datashader, datashader/utils.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `nanmax_in_place`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added; the decorator @ngjit_parallel (numba.jit(nopython=True, nogil=True, parallel=True)) removed
#   original signature: def nanmax_in_place(ret, other):
def nanmax_in_place(ret: Out[Float64[:, :]], other: Float64[:, :]) -> None:
    """Max of 2 arrays but taking nans into account.  Could use np.nanmax but
    would need to replace zeros with nans where both arrays are nans.
    Return the first array.
    """
    ret = ret.ravel()
    other = other.ravel()
    for i in nb.prange(len(ret)):
        if isnull(ret[i]):
            if not isnull(other[i]):
                ret[i] = other[i]
        elif not isnull(other[i]) and other[i] > ret[i]:
            ret[i] = other[i]


# nansum_in_place: holoviz/datashader, datashader/utils.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `nansum_in_place`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added; the decorator @ngjit_parallel (numba.jit(nopython=True, nogil=True, parallel=True)) removed
#   original signature: def nansum_in_place(ret, other):
def nansum_in_place(ret: Out[Float64[:, :]], other: Float64[:, :]) -> None:
    """Sum of 2 arrays but taking nans into account.  Could use np.nansum but
    would need to replace zeros with nans where both arrays are nans.
    Return the first array.
    """
    ret = ret.ravel()
    other = other.ravel()
    for i in nb.prange(len(ret)):
        if isnull(ret[i]):
            if not isnull(other[i]):
                ret[i] = other[i]
        elif not isnull(other[i]):
            ret[i] += other[i]


# shift_and_insert: holoviz/datashader, datashader/utils.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `shift_and_insert`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: the decorator @ngjit (numba.jit(nopython=True, nogil=True)) removed (no annotations: a helper
#   compiled per argument types, called on Float64 and Int64 pixels)
#   original signature: def shift_and_insert(target, value, index):
def shift_and_insert(target, value, index):
    """Insert a value into a 1D array at a particular index, but before doing
    that shift the previous values along one to make room. For use in
    ``FloatingNReduction`` classes such as ``max_n`` and ``first_n`` which
    store ``n`` values per pixel.

    Parameters
    ----------
    target : 1d numpy array
        Target pixel array.

    value : float
        Value to insert into target pixel array.

    index : int
        Index to insert at.

    Returns
    -------
    Index beyond insertion, i.e. where the first shifted value now sits.
    """
    n = len(target)
    for i in range(n-1, index, -1):
        target[i] = target[i-1]
    target[index] = value
    return index + 1


# _nanmax_n_impl: holoviz/datashader, datashader/utils.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `_nanmax_n_impl`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added; the decorator @ngjit (numba.jit(nopython=True, nogil=True)) removed
#   original signature: def _nanmax_n_impl(ret_pixel, other_pixel):
def _nanmax_n_impl(ret_pixel: Out[Float64[:]], other_pixel: Float64[:]) -> None:
    """Single pixel implementation of nanmax_n_in_place.
    ret_pixel and other_pixel are both 1D arrays of the same length.

    Walk along other_pixel a value at a time, find insertion index in
    ret_pixel and shift values along to insert.  Next other_pixel value is
    inserted at a higher index, so this walks the two pixel arrays just once
    each.
    """
    n = len(ret_pixel)
    istart = 0
    for other_value in other_pixel:
        if isnull(other_value):
            break
        else:
            for i in range(istart, n):
                if isnull(ret_pixel[i]) or other_value > ret_pixel[i]:
                    istart = shift_and_insert(ret_pixel, other_value, i)
                    break


# nanmax_n_in_place_3d: holoviz/datashader, datashader/utils.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `nanmax_n_in_place_3d`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added; the decorator @ngjit_parallel (numba.jit(nopython=True, nogil=True, parallel=True)) removed
#   original signature: def nanmax_n_in_place_3d(ret, other):
def nanmax_n_in_place_3d(ret: Out[Float64[:, :, :]], other: Float64[:, :, :]) -> None:
    """3d version of nanmax_n_in_place_4d, taking arrays of shape (ny, nx, n).
    """
    ny, nx, _n = ret.shape
    for y in nb.prange(ny):
        for x in range(nx):
            _nanmax_n_impl(ret[y, x], other[y, x])


# _nanmin_n_impl: holoviz/datashader, datashader/utils.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `_nanmin_n_impl`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added; the decorator @ngjit (numba.jit(nopython=True, nogil=True)) removed
#   original signature: def _nanmin_n_impl(ret_pixel, other_pixel):
def _nanmin_n_impl(ret_pixel: Out[Float64[:]], other_pixel: Float64[:]) -> None:
    """Single pixel implementation of nanmin_n_in_place.
    ret_pixel and other_pixel are both 1D arrays of the same length.

    Walk along other_pixel a value at a time, find insertion index in
    ret_pixel and shift values along to insert.  Next other_pixel value is
    inserted at a higher index, so this walks the two pixel arrays just once
    each.
    """
    n = len(ret_pixel)
    istart = 0
    for other_value in other_pixel:
        if isnull(other_value):
            break
        else:
            for i in range(istart, n):
                if isnull(ret_pixel[i]) or other_value < ret_pixel[i]:
                    istart = shift_and_insert(ret_pixel, other_value, i)
                    break


# nanmin_n_in_place_4d: holoviz/datashader, datashader/utils.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `nanmin_n_in_place_4d`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added; the decorator @ngjit_parallel (numba.jit(nopython=True, nogil=True, parallel=True)) removed
#   original signature: def nanmin_n_in_place_4d(ret, other):
def nanmin_n_in_place_4d(ret: Out[Float64[:, :, :, :]], other: Float64[:, :, :, :]) -> None:
    """Combine two min-n arrays, taking nans into account. Min-n arrays are 4D
    with shape (ny, nx, ncat, n) where ny and nx are the number of pixels,
    ncat the number of categories (will be 1 if not using a categorical
    reduction) and the last axis containing n values in ascending order.
    If there are fewer than n values it is padded with nans.
    Return the first array.
    """
    ny, nx, ncat, _n = ret.shape
    for y in nb.prange(ny):
        for x in range(nx):
            for cat in range(ncat):
                _nanmin_n_impl(ret[y, x, cat], other[y, x, cat])


# row_min_in_place: holoviz/datashader, datashader/utils.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `row_min_in_place`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added; the decorator @ngjit (numba.jit(nopython=True, nogil=True)) removed
#   original signature: def row_min_in_place(ret, other):
def row_min_in_place(ret: Out[Int64[:, :]], other: Int64[:, :]) -> None:
    """Minimum of 2 arrays of row indexes.
    Row indexes are integers from 0 upwards, missing data is -1.
    Return the first array.
    """
    ret = ret.ravel()
    other = other.ravel()
    for i in range(len(ret)):
        if other[i] > -1 and (ret[i] == -1 or other[i] < ret[i]):
            ret[i] = other[i]


# _row_max_n_impl: holoviz/datashader, datashader/utils.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `_row_max_n_impl`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added; the decorator @ngjit (numba.jit(nopython=True, nogil=True)) removed
#   original signature: def _row_max_n_impl(ret_pixel, other_pixel):
def _row_max_n_impl(ret_pixel: Out[Int64[:]], other_pixel: Int64[:]) -> None:
    """Single pixel implementation of row_max_n_in_place.
    ret_pixel and other_pixel are both 1D arrays of the same length.

    Walk along other_pixel a value at a time, find insertion index in
    ret_pixel and shift values along to insert.  Next other_pixel value is
    inserted at a higher index, so this walks the two pixel arrays just once
    each.
    """
    n = len(ret_pixel)
    istart = 0
    for other_value in other_pixel:
        if other_value == -1:
            break
        else:
            for i in range(istart, n):
                if ret_pixel[i] == -1 or other_value > ret_pixel[i]:
                    istart = shift_and_insert(ret_pixel, other_value, i)
                    break


# row_max_n_in_place_3d: holoviz/datashader, datashader/utils.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `row_max_n_in_place_3d`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added; the decorator @ngjit (numba.jit(nopython=True, nogil=True)) removed
#   original signature: def row_max_n_in_place_3d(ret, other):
def row_max_n_in_place_3d(ret: Out[Int64[:, :, :]], other: Int64[:, :, :]) -> None:
    ny, nx, _n = ret.shape
    for y in range(ny):
        for x in range(nx):
            _row_max_n_impl(ret[y, x], other[y, x])


# distance_between: holoviz/datashader, datashader/bundling.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `distance_between`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added from the Numba signature nb.float32(nb.float32[::1], nb.float32[::1]); the decorator @nb.jit(<signature>, nopython=True, nogil=True, fastmath=True, locals={"result": nb.float32, "diff": nb.float32}) removed
#   original signature: def distance_between(a, b):
def distance_between(a: Float32[:], b: Float32[:]) -> Float32:
    """Find the Euclidean distance between two points."""
    diff = a[0] - b[0]
    result = diff * diff
    diff = a[1] - b[1]
    result += diff * diff
    return result


# normalize_gradients: holoviz/datashader, datashader/bundling.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `normalize_gradients`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added from the Numba signature nb.void(nb.float32[:,::1], nb.float32[:,::1]); the decorator @nb.jit(<signature>, nopython=True, nogil=True, fastmath=True) removed
#   original signature: def normalize_gradients(vert, horiz):
def normalize_gradients(vert: Out[Float32[:, :]], horiz: Out[Float32[:, :]]) -> None:
    for i in range(vert.shape[0]):
        for j in range(vert.shape[1]):
            magnitude = np.sqrt(horiz[i, j]**2 + vert[i, j]**2) + 1e-5
            vert[i, j] /= magnitude
            horiz[i, j] /= magnitude


# smooth_segment: holoviz/datashader, datashader/bundling.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `smooth_segment`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added from the Numba signature nb.void(nb.float32[:,::1], nb.float32, nb.int64, nb.int64); the decorator @nb.jit(<signature>, nopython=True, nogil=True, fastmath=True, locals={"i": nb.uint16, ...}) removed
#   original signature: def smooth_segment(segments, tension, idx, idy):
def smooth_segment(segments: Out[Float32[:, :]], tension: Float32, idx: Int64, idy: Int64) -> None:
    for _ in range(10):
        seg_length = len(segments) - 2
        for i in range(1, seg_length):
            previous, current, next_point = segments[i - 1], segments[i], segments[i + 1]
            current[idx] = (((1-tension)*current[idx]) +
                            (tension*(previous[idx] + next_point[idx]) / 2))
            current[idy] = (((1-tension)*current[idy]) +
                            (tension*(previous[idy] + next_point[idy]) / 2))


# resample_segment: holoviz/datashader, datashader/bundling.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `resample_segment`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added from the Numba signature nb.float32[:,::1](nb.float32[:,::1], nb.float32[:,::1], nb.uint16[::1], nb.int64); the decorator @nb.jit(<signature>, nopython=True, nogil=True, fastmath=True, locals={'i': nb.uint16, 'pos': nb.uint64, 'index': nb.uint64, ...}) removed
#   original signature: def resample_segment(segments, new_segments, n_points_to_add, ndims):
def resample_segment(segments: Float32[:, :], new_segments: Out[Float32[:, :]], n_points_to_add: UInt16[:], ndims: Int64) -> Float32[:, :]:
    next_point = np.zeros(ndims, dtype=segments.dtype)
    current_point = segments[0]
    pos = 0
    index = 1
    while index < len(segments):
        next_point = segments[index]
        if (n_points_to_add[index] == 0 and 1 < index < (len(segments) - 2)):
            # Merge points, because they're too close to each other
            current_point = (current_point + next_point) / 2
            new_segments[pos] = current_point
            pos += 1
            index += 2
        elif n_points_to_add[index] > 1:
            # If points are too far away from each other, linearly place new points
            points = n_points_to_add[index]
            step_vector = (next_point - current_point) / points
            for i in range(points):
                new_segments[pos] = current_point + (i * step_vector)
                pos += 1
            current_point = next_point
            index += 1
        else:
            # Do nothing, everything is good
            new_segments[pos] = current_point
            pos += 1
            current_point = next_point
            index += 1
    new_segments[pos] = next_point
    return new_segments


# _get_dimensions: holoviz/datashader, datashader/resampling.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `_get_dimensions`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors (the module adapted from CAB-LAB/gridtools: MIT, Copyright (c) 2016, Brockmann Consult GmbH and contributors)
#   changed: type annotations added; the decorator @ngjit (numba.jit(nopython=True, nogil=True)) removed (a tuple result: unannotated)
#   original signature: def _get_dimensions(src, out):
def _get_dimensions(src: Float64[:, :], out: Float64[:, :]):
    src_w = src.shape[-1]
    src_h = src.shape[-2]
    out_w = out.shape[-1]
    out_h = out.shape[-2]
    return src_w, src_h, out_w, out_h


# _downsample_2d_mean: holoviz/datashader, datashader/resampling.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `_downsample_2d_mean`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors (the module adapted from CAB-LAB/gridtools: MIT, Copyright (c) 2016, Brockmann Consult GmbH and contributors)
#   changed: type annotations added; the decorator @ngjit_parallel (numba.jit(nopython=True, nogil=True, parallel=True)) removed
#   original signature: def _downsample_2d_mean(src, mask, use_mask, method, fill_value, mode_rank, x_offset, y_offset, out):
def _downsample_2d_mean(src: Float64[:, :], mask: Bool[:, :], use_mask: Bool, method: Int64, fill_value: Float64,
                        mode_rank: Int64, x_offset: tuple[Int64, Int64], y_offset: tuple[Int64, Int64], out: Out[Float64[:, :]]) -> Float64[:, :]:
    src_w, src_h, out_w, out_h = _get_dimensions(src, out)

    if src_w == out_w and src_h == out_h:
        return src

    if out_w > src_w or out_h > src_h:
        raise ValueError("invalid target size")

    x0_off, x1_off = x_offset
    y0_off, y1_off = y_offset
    scale_x = (src_w - x0_off - x1_off) / out_w
    scale_y = (src_h - y0_off - y1_off) / out_h

    for out_y in prange(out_h):
        src_yf0 = (scale_y * out_y) + y0_off
        src_yf1 = (src_yf0 + scale_y)
        src_y0 = int(src_yf0)
        src_y1 = int(src_yf1)

        wy0 = 1.0 - (src_yf0 - src_y0)
        wy1 = src_yf1 - src_y1
        if wy1 < _EPS:
            wy1 = 1.0
            if src_y1 > src_y0:
                src_y1 -= 1
        for out_x in range(out_w):
            src_xf0 = (scale_x * out_x) + x0_off
            src_xf1 = src_xf0 + scale_x
            src_x0 = int(src_xf0)
            src_x1 = int(src_xf1)
            wx0 = 1.0 - (src_xf0 - src_x0)
            wx1 = src_xf1 - src_x1
            if wx1 < _EPS:
                wx1 = 1.0
                if src_x1 > src_x0:
                    src_x1 -= 1
            v_sum = 0.0
            w_sum = 0.0
            for src_y in range(src_y0, src_y1 + 1):
                wy = wy0 if (src_y == src_y0) else wy1 if (src_y == src_y1) else 1.0
                for src_x in range(src_x0, src_x1 + 1):
                    wx = wx0 if (src_x == src_x0) else wx1 if (src_x == src_x1) else 1.0
                    v = src[src_y, src_x]
                    if np.isfinite(v) and not (use_mask and mask[src_y, src_x]):
                        w = wx * wy
                        v_sum += w * v
                        w_sum += w
            if w_sum < _EPS:
                out[out_y, out_x] = fill_value
            else:
                out[out_y, out_x] = v_sum / w_sum
    return out


# infer_interval_breaks_2d: holoviz/datashader, datashader/resampling.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `infer_interval_breaks_2d`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors (the module adapted from CAB-LAB/gridtools: MIT, Copyright (c) 2016, Brockmann Consult GmbH and contributors)
#   changed: type annotations added; the decorator @ngjit_parallel (numba.jit(nopython=True, nogil=True, parallel=True)) removed
#   original signature: def infer_interval_breaks_2d(coord):
def infer_interval_breaks_2d(coord: Float64[:, :]) -> Float64[:, :]:
    """
    Optimized single-pass Numba version for 2D arrays.
    Equivalent to applying infer_interval_breaks sequentially on axis=1 then axis=0.
    Uses combined padding with streamlined boundary processing.

    Parameters:
    -----------
    coord : ndarray
        2D coordinate array representing grid centers

    Returns:
    --------
    ndarray
        2D array with interval boundaries, shape (m+1, n+1)
    """
    m, n = coord.shape

    # Create minimal padded array with only boundary rows/columns
    # Note it would be more efficient to track the padding in two arrays
    # top_bottom = np.empty(2, n+2)
    # left_right = np.empty(m+2, 2)
    # Right now the "interior" of `padded` isn't populated
    padded = np.empty((m + 2, n + 2), dtype=coord.dtype)

    # Fill only the necessary boundary rows and columns
    # Linearly extrapolate out to next cell center
    # Left and right boundaries
    for i in range(m):
        padded[i+1, 0] = 2 * coord[i, 0] - coord[i, 1]
        padded[i+1, 1] = coord[i, 0]
        padded[i+1, n] = coord[i, n-1]
        padded[i+1, n+1] = 2 * coord[i, n-1] - coord[i, n-2]

    # Top and bottom boundaries
    for j in range(n):
        padded[0, j+1] = 2 * coord[0, j] - coord[1, j]
        padded[1, j+1] = coord[0, j]
        padded[m, j+1] = coord[m-1, j]
        padded[m+1, j+1] = 2 * coord[m-1, j] - coord[m-2, j]

    # Corner extrapolation
    padded[0, 0] = 2 * padded[0, 1] - padded[0, 2]
    padded[0, n+1] = 2 * padded[0, n] - padded[0, n-1]
    padded[m+1, 0] = 2 * padded[m+1, 1] - padded[m+1, 2]
    padded[m+1, n+1] = 2 * padded[m+1, n] - padded[m+1, n-1]

    result = np.empty((m + 1, n + 1), dtype=coord.dtype)

    # Interior points
    for i in prange(1, m):
        for j in prange(1, n):
            result[i, j] = 0.25 * (coord[i-1, j-1] + coord[i-1, j] +
                                   coord[i, j-1] + coord[i, j])

    # Boundary points using the padded array
    # Top and bottom rows
    for j in prange(n+1):
        result[0, j] = 0.25 * (padded[0, j] + padded[0, j+1] +
                               padded[1, j] + padded[1, j+1])
        result[m, j] = 0.25 * (padded[m, j] + padded[m, j+1] +
                               padded[m+1, j] + padded[m+1, j+1])

    # Left and right columns (skip corners)
    for i in prange(1, m):
        result[i, 0] = 0.25 * (padded[i, 0] + padded[i, 1] +
                               padded[i+1, 0] + padded[i+1, 1])
        result[i, n] = 0.25 * (padded[i, n] + padded[i, n+1] +
                               padded[i+1, n] + padded[i+1, n+1])

    return result


# extract_scaled: holoviz/datashader, datashader/composite.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `extract_scaled`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added from the Numba signature '(uint32,)' (a tuple result: unannotated); the decorator @nb.jit('(uint32,)', nopython=True, nogil=True, cache=True) removed
#   original signature: def extract_scaled(x):
def extract_scaled(x: UInt32):
    """Extract components as float64 values in [0.0, 1.0]"""
    r = np.float64(( x        & 255) / 255)
    g = np.float64(((x >>  8) & 255) / 255)
    b = np.float64(((x >> 16) & 255) / 255)
    a = np.float64(((x >> 24) & 255) / 255)
    return r, g, b, a


# combine_scaled: holoviz/datashader, datashader/composite.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `combine_scaled`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added from the Numba signature '(float64, float64, float64, float64)'; the decorator @nb.jit(<signature>, nopython=True, nogil=True, cache=True) removed
#   original signature: def combine_scaled(r, g, b, a):
def combine_scaled(r: Float64, g: Float64, b: Float64, a: Float64) -> UInt32:
    """Combine components in [0, 1] to rgba uint32"""
    r2 = min(255, np.uint32(r * 255))
    g2 = min(255, np.uint32(g * 255))
    b2 = min(255, np.uint32(b * 255))
    a2 = min(255, np.uint32(a * 255))
    return np.uint32((a2 << 24) | (b2 << 16) | (g2 << 8) | r2)


# over: holoviz/datashader, datashader/composite.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `over`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added for the (uint32, uint32) loop `operator` compiles; the decorator @operator (numba.vectorize(f) compiled for (uint32, uint32)) removed: called on one pixel pair, as the ufunc calls it
#   original signature: def over(src, dst):
def over(src: UInt32, dst: UInt32) -> UInt32:
    sr, sg, sb, sa = extract_scaled(src)
    dr, dg, db, da = extract_scaled(dst)

    factor = 1 - sa
    a = sa + da * factor
    if a == 0:
        return np.uint32(0)
    r = (sr * sa + dr * da * factor)/a
    g = (sg * sa + dg * da * factor)/a
    b = (sb * sa + db * da * factor)/a
    return combine_scaled(r, g, b, a)


# max_arr: holoviz/datashader, datashader/composite.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `max_arr`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added for the (float64, float64) loop `arr_operator` compiles; the decorator @arr_operator (numba.vectorize(f) compiled for int32, int64, float32 and float64 pairs) removed: called on one element pair, as the ufunc calls it
#   original signature: def max_arr(src, dst):
def max_arr(src: Float64, dst: Float64) -> Float64:
    return max([src,  dst])


# _cooling: holoviz/datashader, datashader/layout.py @ b7ac59c5ad20412edbf9b12ee9dc6ff62d563f01
#   function `_cooling`; licence BSD-3-Clause; Copyright (c) 2015, Continuum Analytics, Inc. and contributors
#   changed: type annotations added; the decorator @nb.jit(nopython=True, nogil=True, parallel=True) removed
#   original signature: def _cooling(matrix, points, temperature, iterations, dim, k, nohubs, linlog):
def _cooling(matrix: Float32[:, :], points: Out[Float32[:, :]], temperature: Float64, iterations: Int64, dim: Int64, k: Float64, nohubs: Bool, linlog: Bool) -> None:
    dt = temperature / float(iterations + 1)
    displacement = np.zeros((dim, len(points)))
    for iteration in range(iterations):
        displacement *= 0
        for i in nb.prange(matrix.shape[0]):
            # difference between this row's node position and all others
            delta = (points[i] - points).T

            # distance between points
            distance = np.sqrt((delta ** 2).sum(axis=0))

            # enforce minimum distance of 0.01
            distance = np.where(distance < 0.01, 0.01, distance)

            # the adjacency matrix row
            ai = matrix[i]

            # displacement "force"
            dist = k * k / distance ** 2

            if nohubs:
                dist = dist / float(ai.sum(axis=1) + 1)
            if linlog:
                dist = np.log(dist + 1)
            displacement[:, i] += (delta * (dist - ai * distance / k)).sum(axis=1)

        # update points
        length = np.sqrt((displacement ** 2).sum(axis=0))
        length = np.where(length < 0.01, 0.01, length)
        points += (displacement * temperature / length).T

        # cool temperature
        temperature -= dt


# ---------------------------------------------------------------------------
# Call recipes, shaped as datashader calls the kernels: 2-D aggregates with
# NaN (or -1 for row indexes) where no data fell, combined in place as the
# dask partitions are; max-n/min-n aggregates (ny, nx[, ncat], n) sorted along
# the last axis and padded with NaN (or -1); the float32 edge segments (rows
# of edge_id, x, y: `UnweightedSegment`, idx=1, idy=2) of `hammer_bundle`,
# with the `n_points_to_add` that `calculate_resampling` gives; the gradient
# images of `get_gradients` ((accuracy + 1) squared, float32); a masked source
# raster downsampled to a smaller grid by `_resample_2d`; a curvilinear
# coordinate grid for `infer_interval_breaks_2d`; RGBA uint32 pixels for the
# compositing operators; and `forceatlas2_layout`'s float32 points and dense
# adjacency matrix (temperature 0.1, k = sqrt(1 / n)). From fixed seeds.

def _agg(seed, shape=(6, 8), nan=0.3):
    rng = np.random.default_rng(seed)
    a = rng.normal(0.0, 2.0, shape)
    a[rng.random(shape) < nan] = np.nan
    return a


def args_isnull():
    return (float("nan"),)


def args_nanmax_in_place():
    return (_agg(1), _agg(2))


def args_nansum_in_place():
    return (_agg(3), _agg(4))


def args_shift_and_insert():
    return (np.array([5.0, 3.0, 1.0, np.nan]), 4.0, 1)


def _n_agg(seed, shape, descending, fill):
    rng = np.random.default_rng(seed)
    a = rng.normal(0.0, 2.0, shape)
    counts = rng.integers(0, shape[-1] + 1, shape[:-1])
    a = np.sort(a, axis=-1)
    if descending:
        a = a[..., ::-1].copy()
    for idx in np.ndindex(shape[:-1]):
        a[idx][counts[idx]:] = fill
    return a


def args__nanmax_n_impl():
    return (_n_agg(5, (4,), True, np.nan), _n_agg(6, (4,), True, np.nan))


def args_nanmax_n_in_place_3d():
    return (_n_agg(7, (3, 4, 3), True, np.nan), _n_agg(8, (3, 4, 3), True, np.nan))


def args_nanmin_n_in_place_4d():
    return (_n_agg(9, (3, 4, 2, 3), False, np.nan), _n_agg(10, (3, 4, 2, 3), False, np.nan))


def _rows(seed, shape=(6, 8)):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 100, shape).astype(np.int64)
    a[rng.random(shape) < 0.3] = -1
    return a


def args_row_min_in_place():
    return (_rows(11), _rows(12))


def _row_n(seed, shape=(3, 4, 3)):
    rng = np.random.default_rng(seed)
    a = -np.sort(-rng.integers(0, 100, shape), axis=-1).astype(np.int64)
    counts = rng.integers(0, shape[-1] + 1, shape[:-1])
    for idx in np.ndindex(shape[:-1]):
        a[idx][counts[idx]:] = -1
    return a


def args_row_max_n_in_place_3d():
    return (_row_n(13), _row_n(14))


def args_distance_between():
    return (np.array([0.25, 0.5], dtype=np.float32), np.array([0.75, 0.125], dtype=np.float32))


def args_normalize_gradients():
    rng = np.random.default_rng(15)
    return (rng.normal(0.0, 1.0, (33, 33)).astype(np.float32),
            rng.normal(0.0, 1.0, (33, 33)).astype(np.float32))


def _segments(seed, n=12):
    rng = np.random.default_rng(seed)
    seg = np.empty((n, 3), dtype=np.float32)
    seg[:, 0] = 7.0  # edge_id
    seg[:, 1] = np.sort(rng.random(n))
    seg[:, 2] = rng.random(n)
    return seg


def args_smooth_segment():
    return (_segments(16), np.float32(0.3), 1, 2)


def _calculate_resampling(segments, smin, smax, smean):
    # what datashader's `calculate_resampling` computes (run by hand here)
    current = segments[0]
    index, total = 1, 0
    n_points_to_add = np.zeros(len(segments), dtype=np.uint16)
    while index < len(segments):
        nxt = segments[index]
        distance = np.float32((current[0] - nxt[0]) ** 2 + (current[1] - nxt[1]) ** 2)
        if distance < smin and 1 < index < len(segments) - 2:
            current = (current + nxt) / 2
            n_points_to_add[index] = 0
            total += 1
            index += 2
        elif distance > smax:
            points = np.uint16(np.ceil(np.sqrt(distance / smean)))
            n_points_to_add[index] = points
            total += int(points)
            current = nxt
            index += 1
        else:
            n_points_to_add[index] = 1
            total += 1
            current = nxt
            index += 1
    return total + 1, n_points_to_add


def args_resample_segment():
    seg = _segments(17, 10)[:, 1:].copy()  # EdgelessUnweightedSegment: x, y (ndims 2)
    total, n_points_to_add = _calculate_resampling(seg, 0.01, 0.1, 0.05)
    return (seg, np.zeros((total, 2), dtype=np.float32), n_points_to_add, 2)


def args__downsample_2d_mean():
    rng = np.random.default_rng(18)
    src = rng.normal(10.0, 3.0, (12, 16))
    src[rng.random((12, 16)) < 0.1] = np.nan
    mask = rng.random((12, 16)) < 0.15
    return (src, mask, True, 54, np.nan, 1, (0, 0), (0, 0), np.zeros((5, 7)))


def args_infer_interval_breaks_2d():
    x, y = np.meshgrid(np.linspace(0.0, 4.0, 9), np.linspace(-1.0, 1.0, 6))
    return (x + 0.1 * y ** 2,)


def args_extract_scaled():
    return (np.uint32(0x80FF4020),)


def args_over():
    return (np.uint32(0x80FF4020), np.uint32(0xC02060A0))


def args_max_arr():
    return (1.5, -2.0)


def args__cooling():
    rng = np.random.default_rng(19)
    n = 12
    points = rng.random((n, 2)).astype(np.float32)
    adj = (rng.random((n, n)) < 0.3).astype(np.float32)
    matrix = np.triu(adj, 1) + np.triu(adj, 1).T
    return (matrix, points, 0.1, 10, 2, np.sqrt(1.0 / n), False, False)
