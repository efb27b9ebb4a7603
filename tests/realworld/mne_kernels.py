"""Kernels of MNE-Python (https://github.com/mne-tools/mne-python), BSD-3-Clause
licence, Copyright 2011-2025 MNE-Python authors (the files: Copyright the
MNE-Python contributors)."""
import typing

import numpy as np

from postyp import Bool, Float64, Int64, Out


# bincount: mne-tools/mne-python, mne/_numba.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `bincount`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed; defined where Numba is present, in place of np.bincount
#   original signature: def bincount(x, weights, minlength):
def bincount(x: Int64[:], weights: Float64[:], minlength: Int64) -> Float64[:]:  # noqa: D103
    out = np.zeros(minlength)
    for idx, w in zip(x, weights):
        out[idx] += w
    return out


# _arange_div: mne-tools/mne-python, mne/utils/_numerics_numba.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_arange_div`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit(fastmath=False) (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=False, cache=True)) removed; defined where Numba is present, in place of `_arange_div_fallback`
#   original signature: def _arange_div(n, d):
def _arange_div(n: Int64, d: Float64) -> Float64[:]:  # noqa: D103
    out = np.empty(n, np.float64)
    for i in range(n):
        out[i] = i / d
    return out


# _masked_sum: mne-tools/mne-python, mne/stats/_cluster_level_numba.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_masked_sum`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed
#   original signature: def _masked_sum(x, c):
def _masked_sum(x: Float64[:], c: Int64[:]) -> Float64:
    return np.sum(x[c])


# _masked_sum_power: mne-tools/mne-python, mne/stats/_cluster_level_numba.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_masked_sum_power`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed
#   original signature: def _masked_sum_power(x, c, t_power):
def _masked_sum_power(x: Float64[:], c: Int64[:], t_power: Float64) -> Float64:
    return np.sum(np.sign(x[c]) * np.abs(x[c]) ** t_power)


# _mark_inner: mne-tools/mne-python, mne/preprocessing/_annotate_amplitude_numba.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_mark_inner`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed
#   original signature: def _mark_inner(arr_k, onsets, offsets, min_duration_samples):
def _mark_inner(arr_k: Out[Bool[:]], onsets: Int64[:], offsets: Int64[:], min_duration_samples: Int64) -> None:
    """Inner loop of _reject_short_segments()."""
    for start, stop in zip(onsets, offsets):
        if stop - start < min_duration_samples:
            arr_k[start:stop] = False


# _quat_to_rot: mne-tools/mne-python, mne/_transforms_numba.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_quat_to_rot`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed (annotated for one quaternion, as `_fit_matched_points` and `_chpi_objective` call it)
#   original signature: def _quat_to_rot(quat):
def _quat_to_rot(quat: Float64[:]) -> Float64[:, :]:
    """Convert a set of quaternions to rotations (see :func:`mne.transforms.quat_to_rot`)."""  # noqa: E501
    # z = a + bi + cj + dk
    b, c, d = quat[..., 0], quat[..., 1], quat[..., 2]
    bb, cc, dd = b * b, c * c, d * d
    # use max() here to be safe in case roundoff errs put us over
    aa = np.maximum(1.0 - bb - cc - dd, 0.0)
    a = np.sqrt(aa)
    ab_2 = 2 * a * b
    ac_2 = 2 * a * c
    ad_2 = 2 * a * d
    bc_2 = 2 * b * c
    bd_2 = 2 * b * d
    cd_2 = 2 * c * d
    rotation = np.empty(quat.shape[:-1] + (3, 3))
    rotation[..., 0, 0] = aa + bb - cc - dd
    rotation[..., 0, 1] = bc_2 - ad_2
    rotation[..., 0, 2] = bd_2 + ac_2
    rotation[..., 1, 0] = bc_2 + ad_2
    rotation[..., 1, 1] = aa + cc - bb - dd
    rotation[..., 1, 2] = cd_2 - ab_2
    rotation[..., 2, 0] = bd_2 - ac_2
    rotation[..., 2, 1] = cd_2 + ab_2
    rotation[..., 2, 2] = aa + dd - bb - cc
    return rotation


# _one_rot_to_quat: mne-tools/mne-python, mne/_transforms_numba.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_one_rot_to_quat`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed
#   original signature: def _one_rot_to_quat(rot, *, tol=1e-3):
def _one_rot_to_quat(rot: Float64[:], *, tol: Float64 = 1e-3) -> Float64[:]:
    """Convert a rotation matrix to quaternions."""
    # see e.g. http://www.euclideanspace.com/maths/geometry/rotations/
    #                 conversions/matrixToQuaternion/
    det = np.linalg.det(np.reshape(rot, (3, 3)))
    if np.abs(det - 1.0) > tol:
        raise ValueError("Matrix is not a pure rotation, got determinant != 1")
    t = 1.0 + rot[0] + rot[4] + rot[8]
    if t > np.finfo(rot.dtype).eps:
        s = np.sqrt(t) * 2.0
        # qw = 0.25 * s
        qx = (rot[7] - rot[5]) / s
        qy = (rot[2] - rot[6]) / s
        qz = (rot[3] - rot[1]) / s
    elif rot[0] > rot[4] and rot[0] > rot[8]:
        s = np.sqrt(1.0 + rot[0] - rot[4] - rot[8]) * 2.0
        # qw = (rot[7] - rot[5]) / s
        qx = 0.25 * s
        qy = (rot[1] + rot[3]) / s
        qz = (rot[2] + rot[6]) / s
    elif rot[4] > rot[8]:
        s = np.sqrt(1.0 - rot[0] + rot[4] - rot[8]) * 2
        # qw = (rot[2] - rot[6]) / s
        qx = (rot[1] + rot[3]) / s
        qy = 0.25 * s
        qz = (rot[5] + rot[7]) / s
    else:
        s = np.sqrt(1.0 - rot[0] - rot[4] + rot[8]) * 2.0
        # qw = (rot[3] - rot[1]) / s
        qx = (rot[2] + rot[6]) / s
        qy = (rot[5] + rot[7]) / s
        qz = 0.25 * s
    return np.array((qx, qy, qz))


# _fit_matched_points: mne-tools/mne-python, mne/_transforms_numba.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_fit_matched_points`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed (a tuple result: unannotated)
#   original signature: def _fit_matched_points(p, x, weights=None, scale=False):
def _fit_matched_points(p: Float64[:, :], x: Float64[:, :], weights: typing.Optional[Float64[:]] = None, scale: Bool = False):
    """Fit matched points using an analytical formula."""
    # Follow notation of P.J. Besl and N.D. McKay, A Method for
    # Registration of 3-D Shapes, IEEE Trans. Patt. Anal. Machine Intell., 14,
    # 239 - 255, 1992.
    #
    # The original method is actually by Horn, Closed-form solution of absolute
    # orientation using unit quaternions, J Opt. Soc. Amer. A vol 4 no 4
    # pp 629-642, Apr. 1987. This paper describes how weights can be
    # easily incorporated, and a uniform scale factor can be computed.
    #
    # Caution: This can be dangerous if there are 3 points, or 4 points in
    #          a symmetric layout, as the geometry can be explained
    #          equivalently under 180 degree rotations.
    #
    # Eventually this can be extended to also handle a uniform scale factor,
    # as well.
    assert p.shape == x.shape
    assert p.ndim == 2
    assert p.shape[1] == 3
    # (weighted) centroids
    weights_ = np.full((p.shape[0], 1), 1.0 / max(p.shape[0], 1))
    if weights is not None:
        weights_[:] = np.reshape(weights / weights.sum(), (weights.size, 1))
    mu_p = np.dot(weights_.T, p)[0]
    mu_x = np.dot(weights_.T, x)[0]
    dots = np.dot(p.T, weights_ * x)
    Sigma_px = dots - np.outer(mu_p, mu_x)  # eq 24
    # x and p should no longer be used
    A_ij = Sigma_px - Sigma_px.T
    Delta = np.array([A_ij[1, 2], A_ij[2, 0], A_ij[0, 1]])
    tr_Sigma_px = np.trace(Sigma_px)
    # "N" in Horn:
    Q = np.empty((4, 4))
    Q[0, 0] = tr_Sigma_px
    Q[0, 1:] = Delta
    Q[1:, 0] = Delta
    Q[1:, 1:] = Sigma_px + Sigma_px.T - tr_Sigma_px * np.eye(3)
    _, v = np.linalg.eigh(Q)  # sorted ascending
    quat = np.empty(6)
    quat[:3] = v[1:, -1]
    if v[0, -1] != 0:
        quat[:3] *= np.sign(v[0, -1])
    rot = _quat_to_rot(quat[:3])
    # scale factor is easy once we know the rotation
    if scale:  # p is "right" (from), x is "left" (to) in Horn 1987
        dev_x = x - mu_x
        dev_p = p - mu_p
        dev_x *= dev_x
        dev_p *= dev_p
        if weights is not None:
            dev_x *= weights_
            dev_p *= weights_
        s = np.sqrt(np.sum(dev_x) / np.sum(dev_p))
    else:
        s = 1.0
    # translation is easy once rotation and scale are known
    quat[3:] = mu_x - s * np.dot(rot, mu_p)
    return quat, s


# _chpi_objective: mne-tools/mne-python, mne/_chpi_numba.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_chpi_objective`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed
#   original signature: def _chpi_objective(x, coil_dev_rrs, coil_head_rrs, weights):
def _chpi_objective(x: Float64[:], coil_dev_rrs: Float64[:, :], coil_head_rrs: Float64[:, :], weights: Float64[:]) -> Float64:
    """Compute objective function."""
    d = coil_dev_rrs @ _quat_to_rot(x[:3]).T
    d += x[3:]
    d -= coil_head_rrs
    d *= d
    return d.sum(axis=1) @ weights  # sum over coils, weighted


# _jit_cross: mne-tools/mne-python, mne/_surface_numba.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_jit_cross`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed
#   original signature: def _jit_cross(out, x, y):
def _jit_cross(out: Out[Float64[:, :]], x: Float64[:, :], y: Float64[:, :]) -> None:
    out[..., 0] = x[..., 1] * y[..., 2]
    out[..., 0] -= x[..., 2] * y[..., 1]
    out[..., 1] = x[..., 2] * y[..., 0]
    out[..., 1] -= x[..., 0] * y[..., 2]
    out[..., 2] = x[..., 0] * y[..., 1]
    out[..., 2] -= x[..., 1] * y[..., 0]


# _accumulate_normals: mne-tools/mne-python, mne/_surface_numba.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_accumulate_normals`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed
#   original signature: def _accumulate_normals(tris, tri_nn, npts):
def _accumulate_normals(tris: Int64[:, :], tri_nn: Float64[:, :], npts: Int64) -> Float64[:, :]:
    """Efficiently accumulate triangle normals."""
    # this code replaces the following, but is faster (vectorized):
    #
    # this['nn'] = np.zeros((this['np'], 3))
    # for p in xrange(this['ntri']):
    #     verts = this['tris'][p]
    #     this['nn'][verts, :] += this['tri_nn'][p, :]
    #
    nn = np.zeros((npts, 3))
    for vi in range(3):
        verts = tris[:, vi]
        for idx in range(3):  # x, y, z
            nn[:, idx] += bincount(verts, weights=tri_nn[:, idx], minlength=npts)
    return nn


# _get_tri_dist: mne-tools/mne-python, mne/_surface_numba.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_get_tri_dist`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed
#   original signature: def _get_tri_dist(p, q, p0, q0, a, b, c, dist):
def _get_tri_dist(p: Float64[:], q: Float64[:], p0: Float64[:], q0: Float64[:], a: Float64[:], b: Float64[:], c: Float64[:], dist: Float64[:]) -> Float64[:]:  # pragma: no cover
    """Get the distance to a triangle edge."""
    p1 = p - p0
    q1 = q - q0
    out = p1 * p1 * a
    out += q1 * q1 * b
    out += p1 * q1 * c
    out += dist * dist
    return np.sqrt(out)


# _nearest_tri_edge: mne-tools/mne-python, mne/_surface_numba.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_nearest_tri_edge`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed (a tuple result: unannotated)
#   original signature: def _nearest_tri_edge(pt_tris, pqs, dist, a, b, c):
def _nearest_tri_edge(pt_tris: Int64[:], pqs: Float64[:, :], dist: Float64[:], a: Float64[:], b: Float64[:], c: Float64[:]):  # pragma: no cover
    """Get nearest location from a point to the edge of a set of triangles."""
    # We might do something intelligent here. However, for now
    # it is ok to do it in the hard way
    aa = a[pt_tris]
    bb = b[pt_tris]
    cc = c[pt_tris]
    pp = pqs[:, 0]
    qq = pqs[:, 1]
    # Find the nearest point from a triangle:
    #   Side 1 -> 2
    p0 = np.minimum(np.maximum(pp + 0.5 * (qq * cc) / aa, 0.0), 1.0)
    q0 = np.zeros_like(p0)
    #   Side 2 -> 3
    t1 = 0.5 * ((2.0 * aa - cc) * (1.0 - pp) + (2.0 * bb - cc) * qq) / (aa + bb - cc)
    t1 = np.minimum(np.maximum(t1, 0.0), 1.0)
    p1 = 1.0 - t1
    q1 = t1
    #   Side 1 -> 3
    q2 = np.minimum(np.maximum(qq + 0.5 * (pp * cc) / bb, 0.0), 1.0)
    p2 = np.zeros_like(q2)

    # figure out which one had the lowest distance
    dist0 = _get_tri_dist(pp, qq, p0, q0, aa, bb, cc, dist)
    dist1 = _get_tri_dist(pp, qq, p1, q1, aa, bb, cc, dist)
    dist2 = _get_tri_dist(pp, qq, p2, q2, aa, bb, cc, dist)
    pp = np.concatenate((p0, p1, p2))
    qq = np.concatenate((q0, q1, q2))
    dists = np.concatenate((dist0, dist1, dist2))
    ii = np.argmin(np.abs(dists))
    p, q, pt, dist = pp[ii], qq[ii], pt_tris[ii % len(pt_tris)], dists[ii]
    return p, q, pt, dist


# _get_solids: mne-tools/mne-python, mne/_surface_numba.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_get_solids`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed; defined where Numba is present, in place of `_get_solids_numpy`
#   original signature: def _get_solids(tri_rrs, fros):
def _get_solids(tri_rrs: Float64[:, :, :], fros: Float64[:, :]) -> Float64[:]:
    """Compute _sum_solids_div total angle in chunks.

    Written as an explicit double loop (points outer, triangles inner)
    with scalar arithmetic rather than per-triangle array ops over all
    points (see ``_get_solids_numpy``): inside a numba nopython function,
    the array form allocates and walks several full (n_points, 3)-shaped
    temporaries per triangle, which is much slower than keeping a
    point's running total in a scalar register. This is ~5x faster than
    ``_get_solids_numpy`` but, lacking numba's JIT, ~5x slower if run
    as plain Python, hence the two separate implementations.
    """
    n_tris = len(tri_rrs)
    tot_angle = np.zeros(len(fros))
    for pi in range(len(fros)):
        fx, fy, fz = fros[pi, 0], fros[pi, 1], fros[pi, 2]
        angle = 0.0
        for ti in range(n_tris):
            tri_rr = tri_rrs[ti]
            v1x, v1y, v1z = fx - tri_rr[0, 0], fy - tri_rr[0, 1], fz - tri_rr[0, 2]
            v2x, v2y, v2z = fx - tri_rr[1, 0], fy - tri_rr[1, 1], fz - tri_rr[1, 2]
            v3x, v3y, v3z = fx - tri_rr[2, 0], fy - tri_rr[2, 1], fz - tri_rr[2, 2]
            # v4 = cross(v1, v2); triple = dot(v4, v3)
            triple = (
                (v1y * v2z - v1z * v2y) * v3x
                + (v1z * v2x - v1x * v2z) * v3y
                + (v1x * v2y - v1y * v2x) * v3z
            )
            l1 = np.sqrt(v1x * v1x + v1y * v1y + v1z * v1z)
            l2 = np.sqrt(v2x * v2x + v2y * v2y + v2z * v2z)
            l3 = np.sqrt(v3x * v3x + v3y * v3y + v3z * v3z)
            s = (
                l1 * l2 * l3
                + (v1x * v2x + v1y * v2y + v1z * v2z) * l3
                + (v1x * v3x + v1y * v3y + v1z * v3z) * l2
                + (v2x * v3x + v2y * v3y + v2z * v3z) * l1
            )
            angle -= np.arctan2(triple, s)
        tot_angle[pi] = angle
    return tot_angle


# _toeplitz_dot: mne-tools/mne-python, mne/decoding/time_delaying_ridge.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_toeplitz_dot`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed
#   original signature: def _toeplitz_dot(a, b):
def _toeplitz_dot(a: Float64[:], b: Float64[:]) -> Float64[:, :]:
    """Create upper triangular Toeplitz matrices & compute the dot product."""
    # This is equivalent to:
    # a = linalg.toeplitz(a)
    # b = linalg.toeplitz(b)
    # a[np.triu_indices(len(a), 1)] = 0
    # b[np.triu_indices(len(a), 1)] = 0
    # out = np.dot(a.T, b)
    assert a.shape == b.shape and a.ndim == 1
    out = np.outer(a, b)
    for ii in range(1, len(a)):
        out[ii, ii:] += out[ii - 1, ii - 1 : -1]
        out[ii + 1 :, ii] += out[ii:-1, ii - 1]
    return out


# _edge_correct: mne-tools/mne-python, mne/decoding/time_delaying_ridge.py @ 8aa8dec45a522363be02cba78d0856442b208067
#   function `_edge_correct`; licence BSD-3-Clause; Copyright 2011-2025 MNE-Python authors (Copyright the MNE-Python contributors)
#   changed: type annotations added; the decorator @jit() (mne._numba.jit: numba.jit(nopython=True, nogil=True, fastmath=True, cache=True)) removed
#   original signature: def _edge_correct(this_result, this_X, smax, smin, ch0, ch1):
def _edge_correct(this_result: Out[Float64[:, :]], this_X: Float64[:, :], smax: Int64, smin: Int64, ch0: Int64, ch1: Int64) -> None:
    if smax > 0:
        tail = _toeplitz_dot(this_X[-1:-smax:-1, ch0], this_X[-1:-smax:-1, ch1])
        if smin > 0:
            tail = tail[smin - 1 :, smin - 1 :]
        this_result[max(-smin + 1, 0) :, max(-smin + 1, 0) :] -= tail
    if smin < 0:
        head = _toeplitz_dot(this_X[:-smin, ch0], this_X[:-smin, ch1])[::-1, ::-1]
        if smax < 0:
            head = head[:smax, :smax]
        this_result[:-smin, :-smin] -= head


# ---------------------------------------------------------------------------
# Call recipes, shaped as MNE-Python calls the kernels: vertex indices and
# weights for `bincount` (as `_accumulate_normals` passes them); a recording's
# sample count and sampling rate for `_arange_div` (`Raw.times`); a statistic
# map and one cluster's vertex indices for the cluster sums; a channel's
# flat/peak mask with its onsets and offsets for `_mark_inner`; one quaternion
# for `_quat_to_rot`, one flattened rotation for `_one_rot_to_quat`
# (`rot_to_quat` applies it along the last axis); matched head and device
# points with weights for `_fit_matched_points` and `_chpi_objective` (cHPI
# coil fits); a small closed surface (an octahedron) for the triangle kernels;
# and the delays, channels and data of `_compute_corrs` for the Toeplitz
# kernels. From fixed seeds.

def args_bincount():
    rng = np.random.default_rng(1)
    return (rng.integers(0, 20, 50).astype(np.int64), rng.normal(size=50), 20)


def args__arange_div():
    return (1000, 250.0)


def _cluster(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(0.0, 2.0, 100)
    c = np.sort(rng.choice(100, 17, replace=False)).astype(np.int64)
    return x, c


def args__masked_sum():
    return _cluster(2)


def args__masked_sum_power():
    x, c = _cluster(3)
    return (x, c, 1.5)


def args__mark_inner():
    rng = np.random.default_rng(4)
    ch = np.repeat(rng.random(40) < 0.4, rng.integers(1, 9, 40))[:200]
    diff = np.diff(np.concatenate([[False], ch, [False]]).astype(int))
    onsets = np.flatnonzero(diff == 1).astype(np.int64)
    offsets = np.flatnonzero(diff == -1).astype(np.int64)
    return (ch.copy(), onsets, offsets, 4)


def _quat(seed):
    rng = np.random.default_rng(seed)
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    return q[1:] * np.sign(q[0])  # (b, c, d) with a >= 0


def _rot(q):
    b, c, d = q
    a = np.sqrt(max(1.0 - b * b - c * c - d * d, 0.0))
    return np.array([
        [a * a + b * b - c * c - d * d, 2 * (b * c - a * d), 2 * (b * d + a * c)],
        [2 * (b * c + a * d), a * a + c * c - b * b - d * d, 2 * (c * d - a * b)],
        [2 * (b * d - a * c), 2 * (c * d + a * b), a * a + d * d - b * b - c * c],
    ])


def args__quat_to_rot():
    return (_quat(5),)


def args__one_rot_to_quat():
    return (_rot(_quat(6)).ravel(),)


def _matched(seed, n):
    rng = np.random.default_rng(seed)
    dev = rng.normal(0.0, 0.05, (n, 3))
    q = _quat(seed + 100)
    t = np.array([0.002, -0.01, 0.04])
    head = dev @ _rot(q).T + t + rng.normal(0.0, 1e-4, (n, 3))
    weights = rng.uniform(0.5, 1.0, n)
    return dev, head, weights, np.concatenate([q, t])


def args__fit_matched_points():
    dev, head, weights, _ = _matched(7, 5)
    return (dev, head, weights, False)


def args__chpi_objective():
    dev, head, weights, x = _matched(8, 5)
    return (x, dev, head, weights)


def args__jit_cross():
    rng = np.random.default_rng(9)
    return (np.zeros((20, 3)), rng.normal(size=(20, 3)), rng.normal(size=(20, 3)))


_OCTA_RR = np.array([[1.0, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]])
_OCTA_TRIS = np.array([[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4],
                       [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]], dtype=np.int64)


def _tri_geom():
    rr = _OCTA_RR * np.array([1.0, 1.2, 0.9])
    r1 = rr[_OCTA_TRIS[:, 0]]
    r12 = rr[_OCTA_TRIS[:, 1]] - r1
    r13 = rr[_OCTA_TRIS[:, 2]] - r1
    a = np.sum(r12 * r12, axis=1)
    b = np.sum(r13 * r13, axis=1)
    c = np.sum(r12 * r13, axis=1)
    nn = np.cross(r12, r13)
    nn /= np.linalg.norm(nn, axis=1, keepdims=True)
    return rr, r1, r12, r13, a, b, c, nn


def args__accumulate_normals():
    rr, *_, nn = _tri_geom()
    return (_OCTA_TRIS.copy(), nn, len(rr))


def args__get_tri_dist():
    rng = np.random.default_rng(10)
    p, q, p0, q0 = (rng.uniform(0.0, 1.0, 10) for _ in range(4))
    a, b = rng.uniform(1.0, 2.0, 10), rng.uniform(1.0, 2.0, 10)
    c = rng.uniform(-0.5, 0.5, 10)
    return (p, q, p0, q0, a, b, c, rng.normal(0.0, 0.1, 10))


def args__nearest_tri_edge():
    _, _, _, _, a, b, c, _ = _tri_geom()
    rng = np.random.default_rng(11)
    pt_tris = np.array([0, 2, 3, 5, 6], dtype=np.int64)
    pqs = rng.uniform(-0.5, 1.5, (5, 2))
    return (pt_tris, pqs, rng.normal(0.0, 0.2, 5), a, b, c)


def args__get_solids():
    rr, *_ = _tri_geom()
    fros = np.array([[0.0, 0.0, 0.0], [0.2, -0.1, 0.3], [2.0, 0.5, -1.0]])
    return (rr[_OCTA_TRIS], fros)


def args__toeplitz_dot():
    rng = np.random.default_rng(12)
    return (rng.normal(size=6), rng.normal(size=6))


def args__edge_correct():
    rng = np.random.default_rng(13)
    smin, smax = -2, 3
    len_trf = smax - smin
    return (rng.normal(size=(len_trf, len_trf)), rng.normal(size=(40, 3)), smax, smin, 0, 2)
