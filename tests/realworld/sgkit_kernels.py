"""Kernels of sgkit (https://github.com/sgkit-dev/sgkit), Apache-2.0 licence;
the licence file names no copyright holder: the sgkit developers."""
import math

import numpy as np

from postyp import Float64, Int8, Int64, Out, UInt8, UInt64


# count_alleles: sgkit-dev/sgkit, sgkit/stats/aggregation_numba_fns.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `count_alleles`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own (Numba's signature "void(int8[:], uint8[:], uint8[:])"); the decorator @numba_guvectorize([...], "(k),(n)->(n)") (numba.guvectorize, nopython=True) removed (called on one genotype, as the gufunc calls it)
#   original signature: def count_alleles(g: ArrayLike, _: ArrayLike, out: ArrayLike) -> None:
def count_alleles(
    g: Int8[:], _: UInt8[:], out: Out[UInt8[:]]
) -> None:  # pragma: no cover
    """Generalized U-function for computing per sample allele counts.

    Parameters
    ----------
    g
        Genotype call of shape (ploidy,) containing alleles encoded as
        type `int` with values < 0 indicating a missing allele.
    _
        Dummy variable of type `uint8` or `uint64` and shape (alleles,)
        used to define the number of unique alleles to be counted in the
        return value. The dtype of this array determines the dtype of the
        returned array.

    Returns
    -------
    ac : ndarray
        Allele counts with shape (alleles,) and values corresponding to
        the number of non-missing occurrences of each allele.

    """
    out[:] = 0
    n_allele = len(g)
    for i in range(n_allele):
        a = g[i]
        if a >= 0:
            out[a] += 1


# _classify_hom: sgkit-dev/sgkit, sgkit/stats/aggregation_numba_fns.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `_classify_hom`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own; the decorator @numba_jit(nogil=True) (numba.jit, nopython=True) removed
#   original signature: def _classify_hom(genotype: ArrayLike) -> int:
def _classify_hom(genotype: Int8[:]) -> Int64:  # pragma: no cover
    a0 = genotype[0]
    cat = min(a0, 1)  # -1, 0, 1
    for i in range(1, len(genotype)):
        if cat < 0:
            break
        a = genotype[i]
        if a != a0:
            cat = 2  # het
        if a < 0:
            cat = -1
    return cat


# count_hom: sgkit-dev/sgkit, sgkit/stats/aggregation_numba_fns.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `count_hom`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own (Numba's signature "void(int8[:,:], uint64[:], int64[:])"); the decorator @numba_guvectorize([...], "(n, k),(c)->(c)") (numba.guvectorize, nopython=True) removed (called on the genotypes of one variant, as the gufunc calls it)
#   original signature: def count_hom(genotypes: ArrayLike, _: ArrayLike, out: ArrayLike) -> None:
def count_hom(
    genotypes: Int8[:, :], _: UInt64[:], out: Out[Int64[:]]
) -> None:  # pragma: no cover
    """Generalized U-function for counting homozygous and heterozygous genotypes.

    Parameters
    ----------
    g
        Genotype call of shape (ploidy,) containing alleles encoded as
        type `int` with values < 0 indicating a missing allele.
    _
        Dummy variable of type `uint64` with length 3 which determines the
        number of categories returned (this should always be 3).

    Note
    ----
    This method is not suitable for mixed-ploidy genotypes.

    Returns
    -------
    counts : ndarray
        Counts of homozygous reference, homozygous alternate, and heterozygous genotypes.
    """
    out[:] = 0
    for i in range(len(genotypes)):
        index = _classify_hom(genotypes[i])
        if index >= 0:
            out[index] += 1


# euclidean_map_cpu: sgkit-dev/sgkit, sgkit/distance/metrics.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `euclidean_map_cpu`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own (Numba's signature "void(float64[:], float64[:], float64[:], float64[:])"); the decorator @numba_guvectorize([...], "(n),(n),(p)->(p)") (numba.guvectorize, nopython=True) removed (called on one pair of partial vectors, as the gufunc calls it)
#   original signature: def euclidean_map_cpu(x: ArrayLike, y: ArrayLike, _: ArrayLike, out: ArrayLike) -> None:
def euclidean_map_cpu(
    x: Float64[:], y: Float64[:], _: Float64[:], out: Out[Float64[:]]
) -> None:  # pragma: no cover
    """Euclidean distance "map" function for partial vector pairs.

    Parameters
    ----------
    x
        An array chunk, a partial vector
    y
        Another array chunk, a partial vector
    _
        A dummy variable to map the size of output
    out
        The output array, which has the squared sum of partial vector pairs.

    Returns
    -------
    An ndarray, which contains the output of the calculation of the application
    of euclidean distance on the given pair of chunks, without the aggregation.
    """
    square_sum = 0.0
    m = x.shape[0]
    # Ignore missing values
    for i in range(m):
        if x[i] >= 0 and y[i] >= 0:
            square_sum += (x[i] - y[i]) ** 2
    out[:] = square_sum


# correlation_map_cpu: sgkit-dev/sgkit, sgkit/distance/metrics.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `correlation_map_cpu`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own (Numba's signature "void(float64[:], float64[:], float64[:], float64[:])"); the decorator @numba_guvectorize([...], "(n),(n),(p)->(p)") (numba.guvectorize, nopython=True) removed (called on one pair of partial vectors, as the gufunc calls it)
#   original signature: def correlation_map_cpu(x: ArrayLike, y: ArrayLike, _: ArrayLike, out: ArrayLike) -> None:
def correlation_map_cpu(
    x: Float64[:], y: Float64[:], _: Float64[:], out: Out[Float64[:]]
) -> None:  # pragma: no cover
    """Pearson correlation "map" function for partial vector pairs.

    Parameters
    ----------
    x
        An array chunk, a partial vector
    y
        Another array chunk, a partial vector
    _
        A dummy variable to map the size of output
    out
        The output array, which has the output of pearson correlation.

    Returns
    -------
    An ndarray, which contains the output of the calculation of the application
    of pearson correlation on the given pair of chunks, without the aggregation.
    """

    m = x.shape[0]
    valid_indices = np.zeros(m, dtype=np.float64)

    for i in range(m):
        if x[i] >= 0 and y[i] >= 0:
            valid_indices[i] = 1

    valid_shape = valid_indices.sum()
    _x = np.zeros(int(valid_shape), dtype=x.dtype)
    _y = np.zeros(int(valid_shape), dtype=y.dtype)

    # Ignore missing values
    valid_idx = 0
    for i in range(valid_indices.shape[0]):
        if valid_indices[i] > 0:
            _x[valid_idx] = x[i]
            _y[valid_idx] = y[i]
            valid_idx += 1

    out[:] = np.array(
        [
            np.sum(_x),
            np.sum(_y),
            np.sum(_x * _x),
            np.sum(_y * _y),
            np.sum(_x * _y),
            len(_x),
        ]
    )


# correlation_reduce_cpu: sgkit-dev/sgkit, sgkit/distance/metrics.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `correlation_reduce_cpu`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own (Numba's signature "void(float64[:, :], float64[:])"); the decorator @numba_guvectorize([...], "(p, m)->()") (numba.guvectorize, nopython=True) removed (called on one pair's map results, as the gufunc calls it)
#   original signature: def correlation_reduce_cpu(v: ArrayLike, out: ArrayLike) -> None:
def correlation_reduce_cpu(v: Float64[:, :], out: Out[Float64[:]]) -> None:  # pragma: no cover
    """Corresponding "reduce" function for pearson correlation
    Parameters
    ----------
    v
        The correlation array on which pearson corrections has been
        applied on chunks
    out
        An ndarray, which is a symmetric matrix of pearson correlation

    Returns
    -------
    An ndarray, which contains the result of the calculation of the application
    of euclidean distance on all the chunks.
    """
    v = v.sum(axis=0)
    n = v[5]
    num = n * v[4] - v[0] * v[1]
    denom1 = np.sqrt(n * v[2] - v[0] ** 2)
    denom2 = np.sqrt(n * v[3] - v[1] ** 2)
    denom = denom1 * denom2
    value = np.nan
    if denom > 0:
        value = 1 - (num / denom)
    out[0] = value


# allele_matching_diag: sgkit-dev/sgkit, sgkit/stats/ibs_numba_fns.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `allele_matching_diag`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own (Numba's signature "void(int8[:,:,:], float64[:,:], float64[:,:])"); the decorator @numba_guvectorize([...], "(v,s,k)->(s,s),(s,s)") (numba.guvectorize, nopython=True) removed (called on one block, as the gufunc calls it)
#   original signature: def allele_matching_diag(gt: ArrayLike, numerator: ArrayLike, denominator: ArrayLike) -> None:
def allele_matching_diag(
    gt: Int8[:, :, :],
    numerator: Out[Float64[:, :]],
    denominator: Out[Float64[:, :]],
) -> None:  # pragma: no cover
    n_variant, n_sample, ploidy = gt.shape
    numerator[:] = 0.0
    denominator[:] = 0.0
    for v in range(n_variant):
        for s0 in range(n_sample):
            for s1 in range(s0 + 1):
                # local IBS prob to ensure even weighting of loci
                local_num = 0
                local_denom = 0
                for i in range(ploidy):
                    a0 = gt[v, s0, i]
                    if a0 >= 0:
                        for j in range(ploidy):
                            a1 = gt[v, s1, j]
                            if a1 >= 0:
                                local_denom += 1
                                if a0 == a1:
                                    local_num += 1
                if local_denom > 0:
                    p_ibs = local_num / local_denom
                    numerator[s0, s1] += p_ibs
                    numerator[s1, s0] += p_ibs
                    denominator[s0, s1] += 1.0
                    denominator[s1, s0] += 1.0
            # undo double addition to diagonal
            if local_denom > 0:
                numerator[s0, s0] -= p_ibs
                denominator[s0, s0] -= 1.0


# allele_matching_block: sgkit-dev/sgkit, sgkit/stats/ibs_numba_fns.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `allele_matching_block`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own (Numba's signature "void(int8[:,:,:], int8[:,:,:], float64[:,:], float64[:,:])"); the decorator @numba_guvectorize([...], "(v,s0,k),(v,s1,k)->(s0,s1),(s0,s1)") (numba.guvectorize, nopython=True) removed (called on one pair of blocks, as the gufunc calls it)
#   original signature: def allele_matching_block(gt0: ArrayLike, gt1: ArrayLike, numerator: ArrayLike, denominator: ArrayLike) -> None:
def allele_matching_block(
    gt0: Int8[:, :, :],
    gt1: Int8[:, :, :],
    numerator: Out[Float64[:, :]],
    denominator: Out[Float64[:, :]],
) -> None:  # pragma: no cover
    n_variant, n_sample0, ploidy = gt0.shape
    _, n_sample1, _ = gt1.shape
    numerator[:] = 0.0
    denominator[:] = 0.0
    for v in range(n_variant):
        for s0 in range(n_sample0):
            for s1 in range(n_sample1):
                # local IBS prob to ensure even weighting of loci
                local_num = 0
                local_denom = 0
                for i in range(ploidy):
                    a0 = gt0[v, s0, i]
                    if a0 >= 0:
                        for j in range(ploidy):
                            a1 = gt1[v, s1, j]
                            if a1 >= 0:
                                local_denom += 1
                                if a0 == a1:
                                    local_num += 1
                if local_denom > 0:
                    p_ibs = local_num / local_denom
                    numerator[s0, s1] += p_ibs
                    denominator[s0, s1] += 1.0


# _convert_probability_to_call: sgkit-dev/sgkit, sgkit/stats/conversion_numba_fns.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `_convert_probability_to_call`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own (Numba's signature "void(float64[:], uint8[:], float64, int8[:])"); the decorator @numba_guvectorize([...], "(p),(k),()->(k)") (numba.guvectorize, nopython=True) removed (called on one genotype's probabilities, as the gufunc calls it)
#   original signature: def _convert_probability_to_call(gp: ArrayLike, _: ArrayLike, threshold: float, out: ArrayLike) -> None:
def _convert_probability_to_call(
    gp: Float64[:], _: UInt8[:], threshold: Float64, out: Out[Int8[:]]
) -> None:  # pragma: no cover
    """Generalized U-function for converting genotype probabilities to hard calls

    Parameters
    ----------
    gp
        Genotype probabilities of shape (genotypes,) containing unphased, biallelic
        probabilities in the order homozygous reference, heterozygous, homozygous alternate.
    _
        Dummy variable of type `uint8` and shape (ploidy,) used to define
        the ploidy of the resulting array
    threshold
        Probability threshold that must be met or exceeded by at least one genotype
        probability in order for any calls to be made -- all values will be -1 (missing)
        otherwise. Setting this value to less than 0 disables any effect it has.
    out
        Hard calls array of shape (ploidy,).
    """
    # Ignore singleton array inputs used for metadata inference by dask
    if gp.shape[0] == 1 and out.shape[0] == 1:
        return
    if gp.shape[0] != 3 or out.shape[0] != 2:
        raise NotImplementedError(
            "Hard call conversion only supported for diploid, biallelic genotypes."
        )
    out[:] = -1  # (ploidy,)
    # Return no call if any probability is absent
    if np.any(np.isnan(gp)):
        return
    i = np.argmax(gp)
    # Return no call if max probability does not exceed threshold
    if threshold > 0 and gp[i] < threshold:
        return
    # Return no call if max probability is not unique
    if (gp[i] == gp).sum() > 1:
        return
    # Homozygous reference
    if i == 0:
        out[:] = 0
    # Heterozygous
    elif i == 1:
        out[0] = 1
        out[1] = 0
    # Homozygous alternate
    else:
        out[:] = 1


# _biallelic_genotype_index: sgkit-dev/sgkit, sgkit/stats/conversion_numba_fns.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `_biallelic_genotype_index`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own; the decorator @numba_jit(nogil=True) (numba.jit, nopython=True) removed
#   original signature: def _biallelic_genotype_index(genotype: ArrayLike) -> int:
def _biallelic_genotype_index(genotype: Int8[:]) -> Int64:  # pragma: no cover
    index = 0
    for i in range(len(genotype)):
        a = genotype[i]
        if a < 0:
            if a < -1:
                raise ValueError("Mixed-ploidy genotype indicated by allele < -1")
            return -1
        if a > 1:
            raise ValueError("Allele value > 1")
        index += a
    return index


# biallelic_genotype_call_index: sgkit-dev/sgkit, sgkit/stats/conversion_numba_fns.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `biallelic_genotype_call_index`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own (Numba's signature "void(int8[:], int64[:])"; the project's `-> int` is `-> None`, as the function returns nothing); the decorator @numba_guvectorize([...], "(k)->()") (numba.guvectorize, nopython=True) removed (called on one genotype, as the gufunc calls it)
#   original signature: def biallelic_genotype_call_index(genotype: ArrayLike, out: ArrayLike) -> int:
def biallelic_genotype_call_index(
    genotype: Int8[:], out: Out[Int64[:]]
) -> None:  # pragma: no cover
    out[0] = _biallelic_genotype_index(genotype)


# _count_biallelic_genotypes: sgkit-dev/sgkit, sgkit/stats/conversion_numba_fns.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `_count_biallelic_genotypes`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own (Numba's signature "void(int8[:,:], uint64[:], uint64[:])"; the project's `-> ArrayLike` is `-> None`, as the function returns nothing); the decorator @numba_guvectorize([...], "(n, k),(g)->(g)") (numba.guvectorize, nopython=True) removed (called on the genotypes of one variant, as the gufunc calls it)
#   original signature: def _count_biallelic_genotypes(genotypes: ArrayLike, _: ArrayLike, out: ArrayLike) -> ArrayLike:
def _count_biallelic_genotypes(
    genotypes: Int8[:, :], _: UInt64[:], out: Out[UInt64[:]]
) -> None:  # pragma: no cover
    out[:] = 0
    for i in range(len(genotypes)):
        index = _biallelic_genotype_index(genotypes[i])
        if index >= 0:
            out[index] += 1


# implementation from github.com/PlantandFoodResearch/MCHap
# TODO: replace with math.comb when supported by numba
# _comb: sgkit-dev/sgkit, sgkit/stats/conversion_numba_fns.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `_comb`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own; the decorator @numba_jit(nogil=True) (numba.jit, nopython=True) removed
#   original signature: def _comb(n: int, k: int) -> int:
def _comb(n: Int64, k: Int64) -> Int64:  # pragma: no cover
    if k > n:
        return 0
    r = 1
    for d in range(1, k + 1):
        gcd_ = math.gcd(r, d)
        r //= gcd_
        r *= n
        r //= d // gcd_
        n -= 1
    return r


_COMB_REP_LOOKUP = np.array(
    [[math.comb(max(0, n + k - 1), k) for k in range(11)] for n in range(11)]
)
_COMB_REP_LOOKUP[0, 0] = 0  # special case


# _comb_with_replacement: sgkit-dev/sgkit, sgkit/stats/conversion_numba_fns.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `_comb_with_replacement`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own; the decorator @numba_jit(nogil=True) (numba.jit, nopython=True) removed; the module-level table `_COMB_REP_LOOKUP` kept as the project defines it
#   original signature: def _comb_with_replacement(n: int, k: int) -> int:
def _comb_with_replacement(n: Int64, k: Int64) -> Int64:  # pragma: no cover
    if (n < _COMB_REP_LOOKUP.shape[0]) and (k < _COMB_REP_LOOKUP.shape[1]):
        return _COMB_REP_LOOKUP[n, k]
    n = n + k - 1
    return _comb(n, k)


# _sorted_genotype_index: sgkit-dev/sgkit, sgkit/stats/conversion_numba_fns.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `_sorted_genotype_index`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own; the decorator @numba_jit(nogil=True) (numba.jit, nopython=True) removed
#   original signature: def _sorted_genotype_index(genotype: ArrayLike) -> int:
def _sorted_genotype_index(genotype: Int8[:]) -> Int64:  # pragma: no cover
    # Warning: genotype alleles must be sorted in ascending order!
    if genotype[0] < 0:
        if genotype[0] < -1:
            raise ValueError("Mixed-ploidy genotype indicated by allele < -1")
        return -1
    index = 0
    for i in range(len(genotype)):
        a = genotype[i]
        index += _comb_with_replacement(a, i + 1)
    return index


# sorted_genotype_call_index: sgkit-dev/sgkit, sgkit/stats/conversion_numba_fns.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `sorted_genotype_call_index`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own (Numba's signature "void(int8[:], int64[:])"; the project's `-> int` is `-> None`, as the function returns nothing); the decorator @numba_guvectorize([...], "(k)->()") (numba.guvectorize, nopython=True) removed (called on one genotype, as the gufunc calls it)
#   original signature: def sorted_genotype_call_index(genotype: ArrayLike, out: ArrayLike) -> int:
def sorted_genotype_call_index(
    genotype: Int8[:], out: Out[Int64[:]]
) -> None:  # pragma: no cover
    # Warning: genotype alleles must be sorted in ascending order!
    out[0] = _sorted_genotype_index(genotype)


# _count_sorted_genotypes: sgkit-dev/sgkit, sgkit/stats/conversion_numba_fns.py @ 72f7588f341b441666b0a0a04577cfba9704c64f
#   function `_count_sorted_genotypes`; licence Apache-2.0; the sgkit developers
#   changed: type annotations added in place of the project's own (Numba's signature "void(int8[:,:], uint64[:], uint64[:])"; the project's `-> ArrayLike` is `-> None`, as the function returns nothing); the decorator @numba_guvectorize([...], "(n, k),(g)->(g)") (numba.guvectorize, nopython=True) removed (called on the genotypes of one variant, as the gufunc calls it)
#   original signature: def _count_sorted_genotypes(genotypes: ArrayLike, _: ArrayLike, out: ArrayLike) -> ArrayLike:
def _count_sorted_genotypes(
    genotypes: Int8[:, :], _: UInt64[:], out: Out[UInt64[:]]
) -> None:  # pragma: no cover
    # Warning: genotype alleles must be sorted in ascending order!
    out[:] = 0
    for i in range(len(genotypes)):
        index = _sorted_genotype_index(genotypes[i])
        if index >= 0:
            out[index] += 1


# ---------------------------------------------------------------------------
# Call recipes: the core arguments each gufunc is given per element, shaped
# as sgkit's callers and tests pass them: int8 genotype calls (-1 missing) of
# ploidy 2 (biallelic, alleles 0/1) or 4 (sorted, alleles 0..3), the uint8 /
# uint64 dummy arrays that size the output (`np.empty(n_alleles,
# dtype=np.uint8)`, 3 categories), float64 partial vectors with -1 marking
# missing values for the distance map steps, a (chunks, 6) map result for
# the correlation reduce step, (variants, samples, ploidy) blocks for IBS,
# and genotype probabilities of length 3 with threshold 0.9 or 0.
# From fixed seeds.

def _genotypes(n, ploidy, high, seed, missing=0.1):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, high, (n, ploidy)).astype(np.int8)
    g[rng.random((n, ploidy)) < missing] = -1
    return g


def args_count_alleles():
    return (np.array([0, 2, -1, 2], dtype=np.int8), np.empty(4, dtype=np.uint8), np.empty(4, dtype=np.uint8))


def args__classify_hom():
    return (np.array([1, 1, 1], dtype=np.int8),)


def args_count_hom():
    return (_genotypes(50, 2, 2, 1), np.empty(3, dtype=np.uint64), np.empty(3, dtype=np.int64))


def _partial(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 3, n).astype(np.float64)
    x[rng.random(n) < 0.1] = -1.0
    return x


def args_euclidean_map_cpu():
    return (_partial(100, 2), _partial(100, 3), np.empty(1), np.empty(1))


def args_correlation_map_cpu():
    return (_partial(100, 4), _partial(100, 5), np.empty(6), np.empty(6))


def args_correlation_reduce_cpu():
    rng = np.random.default_rng(6)
    v = np.zeros((3, 6))
    for c in range(3):
        x = rng.integers(0, 3, 40).astype(np.float64)
        y = rng.integers(0, 3, 40).astype(np.float64)
        v[c] = [x.sum(), y.sum(), (x * x).sum(), (y * y).sum(), (x * y).sum(), len(x)]
    return (v, np.empty(1))


def args_allele_matching_diag():
    gt = _genotypes(20 * 8, 2, 3, 7).reshape(20, 8, 2)
    return (gt, np.empty((8, 8)), np.empty((8, 8)))


def args_allele_matching_block():
    gt0 = _genotypes(20 * 6, 2, 3, 8).reshape(20, 6, 2)
    gt1 = _genotypes(20 * 5, 2, 3, 9).reshape(20, 5, 2)
    return (gt0, gt1, np.empty((6, 5)), np.empty((6, 5)))


def args__convert_probability_to_call():
    return (np.array([0.02, 0.93, 0.05]), np.empty(2, dtype=np.uint8), 0.9, np.empty(2, dtype=np.int8))


def args__biallelic_genotype_index():
    return (np.array([1, 0], dtype=np.int8),)


def args_biallelic_genotype_call_index():
    return (np.array([1, 1], dtype=np.int8), np.empty(1, dtype=np.int64))


def args__count_biallelic_genotypes():
    return (_genotypes(50, 2, 2, 10), np.empty(3, dtype=np.uint64), np.empty(3, dtype=np.uint64))


def args__comb():
    return (14, 4)


def args__comb_with_replacement():
    return (12, 4)


def args__sorted_genotype_index():
    return (np.array([0, 1, 1, 3], dtype=np.int8),)


def args_sorted_genotype_call_index():
    return (np.array([1, 2, 3, 3], dtype=np.int8), np.empty(1, dtype=np.int64))


def args__count_sorted_genotypes():
    g = np.sort(_genotypes(50, 4, 4, 11, missing=0.0), axis=1)
    g[::7] = -1
    return (g, np.empty(35, dtype=np.uint64), np.empty(35, dtype=np.uint64))
