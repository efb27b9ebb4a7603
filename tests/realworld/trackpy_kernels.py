"""Kernels of trackpy (https://github.com/soft-matter/trackpy), BSD-3-Clause licence,
Copyright (c) 2013-2014 trackpy contributors."""
import numpy as np

from postyp import Float64, Int16, Int64, Out, UInt8


# _numba_subnet_norecur: soft-matter/trackpy, trackpy/linking/subnetlinker.py @ 06dcfbfbac88cef43def9b55dbc0786773ab8d7f
#   function `_numba_subnet_norecur`; licence BSD-3-Clause; Copyright (c) 2013-2014 trackpy contributors
#   changed: type annotations added; Numba decorator removed (it was @try_numba_jit(nopython=True), trackpy's wrapper of numba.jit)
#   original signature: def _numba_subnet_norecur(ncands, candsarray, dists2array, cur_assignments, cur_sums, tmp_assignments, best_assignments):
def _numba_subnet_norecur(
    ncands: Int64[:],
    candsarray: Int64[:, :],
    dists2array: Float64[:, :],
    cur_assignments: Out[Int64[:]],
    cur_sums: Out[Float64[:]],
    tmp_assignments: Out[Int64[:]],
    best_assignments: Out[Int64[:]],
) -> Int64:
    """Find the optimal track assignments for a subnetwork, without recursion.

    This is for nj source particles. All arguments are arrays with nj rows.

    cur_assignments, tmp_assignments are just temporary registers of length nj.
    best_assignments is modified in place.
    Returns the number of assignments tested (at all levels). This is basically
    proportional to time spent.
    """
    nj = candsarray.shape[0]
    tmp_sum = 0.
    best_sum = 1.0e23
    j = 0
    loopcount = 0  # Keep track of iterations. This should be an int64.
    while 1:
        loopcount += 1
        delta = 0 # What to do at the end
        # This is an endless loop. We go up and down levels of recursion,
        # and emulate the mechanics of nested "for" loops, using the
        # blocks of code marked "GO UP" and "GO DOWN". It's not pretty.

        # Load state from the "stack"
        i = tmp_assignments[j]
        #if j == 0:
        #    print i, j, best_sum
        #    sys.stdout.flush()
        if i >= ncands[j]:
            # We've exhausted possibilities at this level, including the
            # null link; make no more changes and go up a level
            #### GO UP
            delta = -1
        else:
            tmp_sum = cur_sums[j] + dists2array[j, i]
            if tmp_sum > best_sum:
                # if we are already greater than the best sum, bail. we
                # can bail all the way out of this branch because all
                # the other possible connections (including the null
                # connection) are more expensive than the current
                # connection, thus we can discard with out testing all
                # leaves down this branch
                #### GO UP
                delta = -1
            else:
                # We have to seriously consider this candidate.
                # We can have as many null links as we want, but the real particles are finite
                # This loop looks inefficient but it's what numba wants!
                flag = 0
                for jtmp in range(nj):
                    if cur_assignments[jtmp] == candsarray[j, i]:
                        if jtmp < j:
                            flag = 1
                if flag and candsarray[j, i] >= 0:
                    # We have already used this destination point and it is
                    # not null; try the next "i" instead
                    delta = 0
                else:
                    cur_assignments[j] = candsarray[j, i]
                    # OK, I guess we'll try this assignment
                    if j + 1 == nj:
                        # We have made assignments for all the particles,
                        # and we never exceeded the previous best_sum.
                        # This is our new optimum.
                        # print 'hit: %f' % best_sum
                        best_sum = tmp_sum
                        # This array is shared by all levels of recursion.
                        # If it's not touched again, it will be used once we
                        # get back to link_subnet
                        for jtmp in range(nj):
                            best_assignments[jtmp] = cur_assignments[jtmp]
                        #### GO UP
                        delta = -1
                    else:
                        # Try various assignments for the next particle
                        #### GO DOWN
                        delta = 1
        if delta == -1:
            if j > 0:
                j += -1
                tmp_assignments[j] += 1  # Try the next candidate at this higher level
                continue
            else:
                return loopcount
        elif delta == 1:
            j += 1
            cur_sums[j] = tmp_sum  # Floor for all subsequent sums
            tmp_assignments[j] = 0
        else:
            tmp_assignments[j] += 1


# _numba_refine_2D: soft-matter/trackpy, trackpy/refine/center_of_mass.py @ 06dcfbfbac88cef43def9b55dbc0786773ab8d7f
#   function `_numba_refine_2D`; licence BSD-3-Clause; Copyright (c) 2013-2014 trackpy contributors
#   changed: type annotations added; Numba decorator removed (it was @try_numba_jit(nopython=True), trackpy's wrapper of numba.jit)
#   original signature: def _numba_refine_2D(image, radiusY, radiusX, coords, N, max_iterations, shift_thresh, shapeY, shapeX, maskY, maskX, N_mask, results):
def _numba_refine_2D(
    image: UInt8[:, :],
    radiusY: Int64,
    radiusX: Int64,
    coords: Int64[:, :],
    N: Int64,
    max_iterations: Int64,
    shift_thresh: Float64,
    shapeY: Int64,
    shapeX: Int64,
    maskY: Int16[:],
    maskX: Int16[:],
    N_mask: Int64,
    results: Out[Float64[:, :]],
) -> Int64:
    MASS_COL = 2

    upper_boundY = shapeY - radiusY - 1
    upper_boundX = shapeX - radiusX - 1

    for feat in range(N):
        # coord is an integer.
        coordY = coords[feat, 0]
        coordX = coords[feat, 1]
        for iteration in range(max_iterations):
            # Define the circular neighborhood of (x, y).
            cm_nY = 0.
            cm_nX = 0.
            squareY = coordY - radiusY
            squareX = coordX - radiusX
            mass_ = 0.0
            for i in range(N_mask):
                px = image[squareY + maskY[i],
                           squareX + maskX[i]]
                cm_nY += px*maskY[i]
                cm_nX += px*maskX[i]
                mass_ += px

            cm_nY /= mass_
            cm_nX /= mass_
            cm_iY = cm_nY - radiusY + coordY
            cm_iX = cm_nX - radiusX + coordX

            off_centerY = cm_nY - radiusY
            off_centerX = cm_nX - radiusX
            if (abs(off_centerY) < shift_thresh and
                abs(off_centerX) < shift_thresh):
                break  # Go to next feature

            # If we're off by more than half a pixel in any direction, move.
            oc = off_centerY
            if oc > shift_thresh:
                coordY += 1
            elif oc < - shift_thresh:
                coordY -= 1
            oc = off_centerX
            if oc > shift_thresh:
                coordX += 1
            elif oc < - shift_thresh:
                coordX -= 1
            # Don't move outside the image!
            if coordY < radiusY:
                coordY = radiusY
            if coordX < radiusX:
                coordX = radiusX
            if coordY > upper_boundY:
                coordY = upper_boundY
            if coordX > upper_boundX:
                coordX = upper_boundX

        # use yx order
        results[feat, 0] = cm_iY
        results[feat, 1] = cm_iX

        # Characterize the neighborhood of our final centroid.
        results[feat, MASS_COL] = mass_

    return 0  # Unused


# _numba_refine_2D_c: soft-matter/trackpy, trackpy/refine/center_of_mass.py @ 06dcfbfbac88cef43def9b55dbc0786773ab8d7f
#   function `_numba_refine_2D_c`; licence BSD-3-Clause; Copyright (c) 2013-2014 trackpy contributors
#   changed: type annotations added; Numba decorator removed (it was @try_numba_jit(nopython=True), trackpy's wrapper of numba.jit)
#   original signature: def _numba_refine_2D_c(raw_image, image, radiusY, radiusX, coords, N, max_iterations, shift_thresh, shapeY, shapeX, maskY, maskX, N_mask, r2_mask, cmask, smask, results):
def _numba_refine_2D_c(
    raw_image: UInt8[:, :],
    image: UInt8[:, :],
    radiusY: Int64,
    radiusX: Int64,
    coords: Int64[:, :],
    N: Int64,
    max_iterations: Int64,
    shift_thresh: Float64,
    shapeY: Int64,
    shapeX: Int64,
    maskY: Int16[:],
    maskX: Int16[:],
    N_mask: Int64,
    r2_mask: Int64[:],
    cmask: Float64[:],
    smask: Float64[:],
    results: Out[Float64[:, :]],
) -> Int64:
    MASS_COL = 2
    RG_COL = 3
    ECC_COL = 4
    SIGNAL_COL = 5
    RAW_MASS_COL = 6

    upper_boundY = shapeY - radiusY - 1
    upper_boundX = shapeX - radiusX - 1

    for feat in range(N):
        # coord is an integer.
        coordY = coords[feat, 0]
        coordX = coords[feat, 1]

        for iteration in range(max_iterations):
            # Define the circular neighborhood of (x, y).
            cm_nY = 0.
            cm_nX = 0.
            squareY = coordY - radiusY
            squareX = coordX - radiusX
            mass_ = 0.0
            for i in range(N_mask):
                px = image[squareY + maskY[i],
                           squareX + maskX[i]]
                cm_nY += px*maskY[i]
                cm_nX += px*maskX[i]
                mass_ += px

            cm_nY /= mass_
            cm_nX /= mass_
            cm_iY = cm_nY - radiusY + coordY
            cm_iX = cm_nX - radiusX + coordX

            off_centerY = cm_nY - radiusY
            off_centerX = cm_nX - radiusX
            if (abs(off_centerY) < shift_thresh and
                abs(off_centerX) < shift_thresh):
                break  # Go to next feature

            oc = off_centerY
            if oc > shift_thresh:
                coordY += 1
            elif oc < - shift_thresh:
                coordY -= 1
            oc = off_centerX
            if oc > shift_thresh:
                coordX += 1
            elif oc < - shift_thresh:
                coordX -= 1
            # Don't move outside the image!
            if coordY < radiusY:
                coordY = radiusY
            if coordX < radiusX:
                coordX = radiusX
            if coordY > upper_boundY:
                coordY = upper_boundY
            if coordX > upper_boundX:
                coordX = upper_boundX

        # use yx order
        results[feat, 0] = cm_iY
        results[feat, 1] = cm_iX

        # Characterize the neighborhood of our final centroid.
        raw_mass_ = 0.
        Rg_ = 0.
        ecc1 = 0.
        ecc2 = 0.
        signal_ = 0.

        for i in range(N_mask):
            px = image[squareY + maskY[i],
                       squareX + maskX[i]]
            Rg_ += r2_mask[i]*px
            ecc1 += cmask[i]*px
            ecc2 += smask[i]*px
            raw_mass_ += raw_image[squareY + maskY[i],
                                   squareX + maskX[i]]
            if px > signal_:
                signal_ = px
        results[feat, RG_COL] = np.sqrt(Rg_/mass_)
        results[feat, MASS_COL] = mass_
        center_px = image[squareY + radiusY, squareX + radiusX]
        results[feat, ECC_COL] = np.sqrt(ecc1**2 + ecc2**2) / (mass_ - center_px + 1e-6)
        results[feat, SIGNAL_COL] = signal_
        results[feat, RAW_MASS_COL] = raw_mass_

    return 0  # Unused


# _numba_refine_2D_c_a: soft-matter/trackpy, trackpy/refine/center_of_mass.py @ 06dcfbfbac88cef43def9b55dbc0786773ab8d7f
#   function `_numba_refine_2D_c_a`; licence BSD-3-Clause; Copyright (c) 2013-2014 trackpy contributors
#   changed: type annotations added; Numba decorator removed (it was @try_numba_jit(nopython=True), trackpy's wrapper of numba.jit)
#   original signature: def _numba_refine_2D_c_a(raw_image, image, radiusY, radiusX, coords, N, max_iterations, shift_thresh, shapeY, shapeX, maskY, maskX, N_mask, y2_mask, x2_mask, cmask, smask, results):
def _numba_refine_2D_c_a(
    raw_image: UInt8[:, :],
    image: UInt8[:, :],
    radiusY: Int64,
    radiusX: Int64,
    coords: Int64[:, :],
    N: Int64,
    max_iterations: Int64,
    shift_thresh: Float64,
    shapeY: Int64,
    shapeX: Int64,
    maskY: Int16[:],
    maskX: Int16[:],
    N_mask: Int64,
    y2_mask: Int64[:],
    x2_mask: Int64[:],
    cmask: Float64[:],
    smask: Float64[:],
    results: Out[Float64[:, :]],
) -> Int64:
    MASS_COL = 2
    RGY_COL = 3
    RGX_COL = 4
    ECC_COL = 5
    SIGNAL_COL = 6
    RAW_MASS_COL = 7

    upper_boundY = shapeY - radiusY - 1
    upper_boundX = shapeX - radiusX - 1

    for feat in range(N):
        # coord is an integer.
        coordY = coords[feat, 0]
        coordX = coords[feat, 1]

        for iteration in range(max_iterations):
            # Define the circular neighborhood of (x, y).
            cm_nY = 0.
            cm_nX = 0.
            squareY = coordY - radiusY
            squareX = coordX - radiusX
            mass_ = 0.0
            for i in range(N_mask):
                px = image[squareY + maskY[i],
                           squareX + maskX[i]]
                cm_nY += px*maskY[i]
                cm_nX += px*maskX[i]
                mass_ += px

            cm_nY /= mass_
            cm_nX /= mass_
            cm_iY = cm_nY - radiusY + coordY
            cm_iX = cm_nX - radiusX + coordX

            off_centerY = cm_nY - radiusY
            off_centerX = cm_nX - radiusX
            if (abs(off_centerY) < shift_thresh and
                abs(off_centerX) < shift_thresh):
                break  # Go to next feature

            # If we're off by more than half a pixel in any direction, move.
            oc = off_centerY
            if oc > shift_thresh:
                coordY += 1
            elif oc < - shift_thresh:
                coordY -= 1
            oc = off_centerX
            if oc > shift_thresh:
                coordX += 1
            elif oc < - shift_thresh:
                coordX -= 1
            # Don't move outside the image!
            if coordY < radiusY:
                coordY = radiusY
            if coordX < radiusX:
                coordX = radiusX
            if coordY > upper_boundY:
                coordY = upper_boundY
            if coordX > upper_boundX:
                coordX = upper_boundX
            # Update slice to shifted position.

        # use yx order
        results[feat, 0] = cm_iY
        results[feat, 1] = cm_iX

        # Characterize the neighborhood of our final centroid.
        mass_ = 0.
        raw_mass_ = 0.
        RgY = 0.
        RgX = 0.
        ecc1 = 0.
        ecc2 = 0.
        signal_ = 0.

        for i in range(N_mask):
            px = image[squareY + maskY[i],
                       squareX + maskX[i]]
            mass_ += px

            RgY += y2_mask[i]*px
            RgX += x2_mask[i]*px
            ecc1 += cmask[i]*px
            ecc2 += smask[i]*px
            raw_mass_ += raw_image[squareY + maskY[i],
                                   squareX + maskX[i]]
            if px > signal_:
                signal_ = px
        results[feat, RGY_COL] = np.sqrt(RgY/mass_)
        results[feat, RGX_COL] = np.sqrt(RgX/mass_)
        results[feat, MASS_COL] = mass_
        center_px = image[squareY + radiusY, squareX + radiusX]
        results[feat, ECC_COL] = np.sqrt(ecc1**2 + ecc2**2) / (mass_ - center_px + 1e-6)
        results[feat, SIGNAL_COL] = signal_
        results[feat, RAW_MASS_COL] = raw_mass_

    return 0  # Unused

# ---------------------------------------------------------------------------
# Call recipes: the arrays trackpy's callers build. `numba_link` (the subnet
# linker): per source particle its forward candidates (destination indices,
# then the null link -1) padded to 9 columns with -1, the squared distances
# padded with search_range**2, and the four work registers. `refine_com_arr`
# with engine='numba': an 8-bit image (what `locate` refines after
# `convert_to_int`) of Gaussian spots, integer start coordinates a pixel or
# two off the spots, the mask coordinates `np.asarray(mask.nonzero(), np.int16)`
# and the r^2 / x^2 / cos / sin masks of trackpy.masks (re-derived below), and
# the results array of 3, 7 or 8 columns, from fixed seeds.

def args__numba_subnet_norecur():
    rng = np.random.default_rng(0)
    search_range = 5.0
    nj, max_candidates = 5, 9
    candsarray = np.ones((nj, max_candidates), dtype=np.int64) * -1
    distsarray = np.ones((nj, max_candidates), dtype=np.float64) * search_range
    ncands = np.zeros((nj,), dtype=np.int64)
    for j in range(nj):
        k = int(rng.integers(1, 4))  # real candidates of source j
        cands = rng.choice(6, size=k, replace=False)
        dists = np.sort(rng.uniform(0.5, search_range, size=k))
        order = np.argsort(dists)
        ncands[j] = k + 1  # and the null link
        candsarray[j, :k] = cands[order]
        distsarray[j, :k] = dists
    best_assignments = np.ones((nj,), dtype=np.int64) * -1
    cur_assignments = np.ones((nj,), dtype=np.int64) * -1
    tmp_assignments = np.zeros((nj,), dtype=np.int64)
    cur_sums = np.zeros((nj,), dtype=np.float64)
    return (ncands, candsarray, distsarray**2, cur_assignments, cur_sums,
            tmp_assignments, best_assignments)


def _spots(seed, shape=(64, 64), n=5, sigma=2.0):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]]
    centres = rng.uniform(10, shape[0] - 10, size=(n, 2))
    img = np.zeros(shape)
    for cy, cx in centres:
        img += 200 * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * sigma**2))
    img += rng.uniform(0, 10, shape)
    image = np.clip(img, 0, 255).astype(np.uint8)
    coords = (np.round(centres) + rng.integers(-2, 3, size=(n, 2))).astype(np.int64)
    return image, coords


def _masks(radius):
    # trackpy.masks.binary_mask, r_squared_mask, x_squared_masks, cosmask, sinmask (2-D)
    points = [np.arange(-rad, rad + 1) for rad in radius]
    coords = np.array(np.meshgrid(*points, indexing="ij"))
    r = sum((coord / rad) ** 2 for (coord, rad) in zip(coords, radius))
    mask = r <= 1
    r2 = np.sum(coords**2, 0).astype(int)
    r2[r > 1] = 0
    x2 = np.asarray(coords**2, dtype=int)
    x2[:, r > 1] = 0
    theta = np.fromfunction(lambda y, x: np.arctan2(y - radius[0], x - radius[1]),
                            [q * 2 + 1 for q in radius])
    return mask, r2, x2, np.cos(2 * theta), np.sin(2 * theta)


def args__numba_refine_2D():
    image, coords = _spots(1)
    radius = (4, 4)
    mask = _masks(radius)[0]
    mask_coordsY, mask_coordsX = np.asarray(mask.nonzero(), np.int16)
    N = coords.shape[0]
    results = np.empty((N, 3), dtype=np.float64)
    return (image, radius[0], radius[1], coords, N, 10, 0.6,
            image.shape[0], image.shape[1], mask_coordsY, mask_coordsX,
            mask_coordsY.shape[0], results)


def args__numba_refine_2D_c():
    image, coords = _spots(2)
    raw_image = image.copy()
    radius = (4, 4)
    mask, r2, x2, cm, sm = _masks(radius)
    mask_coordsY, mask_coordsX = np.asarray(mask.nonzero(), np.int16)
    N = coords.shape[0]
    results = np.empty((N, 7), dtype=np.float64)
    return (raw_image, image, radius[0], radius[1], coords, N, 10, 0.6,
            image.shape[0], image.shape[1], mask_coordsY, mask_coordsX,
            mask_coordsY.shape[0], r2[mask], cm[mask], sm[mask], results)


def args__numba_refine_2D_c_a():
    image, coords = _spots(3)
    raw_image = image.copy()
    radius = (4, 3)
    mask, r2, x2, cm, sm = _masks(radius)
    mask_coordsY, mask_coordsX = np.asarray(mask.nonzero(), np.int16)
    N = coords.shape[0]
    results = np.empty((N, 8), dtype=np.float64)
    return (raw_image, image, radius[0], radius[1], coords, N, 10, 0.6,
            image.shape[0], image.shape[1], mask_coordsY, mask_coordsX,
            mask_coordsY.shape[0], 2 * x2[0][mask], 2 * x2[1][mask], cm[mask], sm[mask],
            results)
