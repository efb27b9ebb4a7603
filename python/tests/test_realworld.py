"""Real Numba kernels (tests/realworld/): functions taken from public,
permissively licensed scientific Python projects, changed only by type
annotations and by dropping (or, for `@vectorize`, replacing with `@ufunc`)
the Numba decorator.

Each kernel runs under CPython and NumPy as the oracle and through the
package (`postc.jit`, or the `@ufunc` the file declares) on the same
arguments (the file's `args_<kernel>()` recipe). The table EXPECTED records
what each kernel does today: it compiles and agrees with the oracle
(PASS), or it is refused with a located `postc.CompileError` whose first
diagnostic contains the recorded fragment, or (WRONG, a known compiler bug)
it compiles and disagrees with the oracle: a strict xfail, so the fix shows
as an XPASS failure. The test asserts the recorded outcome exactly, so a kernel that starts compiling, or fails differently,
fails here and the table is updated: a ratchet. The third field of a
refusal is the construct that blocks the kernel, counted in
tests/realworld/README.md and docs/python.md.

`python -m pytest python/tests/test_realworld.py -s` prints the summary
(N of M compile and agree); `python tests/realworld/report.py` prints the
table of outcomes."""
import collections
import copy
import importlib.util
import inspect
import pathlib
import re
import warnings

import numpy as np
import pytest

import postc

CORPUS = pathlib.Path(__file__).resolve().parent.parent.parent / "tests" / "realworld"

PASS = "pass"


def refused(fragment, construct):
    return ("error", fragment, construct)


def wrong(bug, construct):
    """Compiles and disagrees with CPython: a compiler bug, described."""
    return ("wrong", bug, construct)


# kernel ("<file stem>.<function>") -> PASS, refused(first diagnostic
# fragment, blocking construct), or wrong(the bug, the construct behind it)
EXPECTED = {
    # QuantEcon.py (MIT)
    "quantecon_kernels.sa_indices": PASS,
    "quantecon_kernels._s_wise_max_argmax": PASS,
    "quantecon_kernels._s_wise_max": PASS,
    "quantecon_kernels._find_indices": PASS,
    "quantecon_kernels._has_sorted_sa_indices": PASS,
    "quantecon_kernels._generate_a_indptr": PASS,
    "quantecon_kernels._gth_solve_jit": PASS,
    "quantecon_kernels._generate_sample_paths": PASS,
    "quantecon_kernels._repeat_1d": PASS,
    "quantecon_kernels._cartesian_index": PASS,
    "quantecon_kernels.lorenz_curve": PASS,
    "quantecon_kernels.gini_coefficient": PASS,
    "quantecon_kernels.gammaln": PASS,
    "quantecon_kernels.fix": PASS,
    # numba-examples (BSD-2-Clause)
    "numba_examples.bubblesort": PASS,
    "numba_examples.mergesort_inplace": PASS,
    "numba_examples.move_mean": PASS,
    "numba_examples.sum2d": PASS,
    "numba_examples.mandel": PASS,
    "numba_examples.create_fractal": PASS,
    "numba_examples.jacobi_relax_core": PASS,
    "numba_examples.cnd_numba": PASS,
    "numba_examples.black_scholes_numba": PASS,
    "numba_examples.filter2d_core": PASS,
    "numba_examples.fbcorr": PASS,
    "numba_examples.xsten": PASS,
    "numba_examples.lj_numba_scalar": PASS,
    "numba_examples.distance_numba_scalar": PASS,
    "numba_examples.potential_numba_scalar": PASS,
    "numba_examples.numba_zero_suppression": PASS,
    "numba_examples.get_bin_edges": PASS,
    "numba_examples.compute_bin": PASS,
    "numba_examples.gaussian": PASS,
    "numba_examples.numba_kde": PASS,
    "umap_kernels.sign": PASS,
    "umap_kernels.softmax": PASS,
    "umap_kernels.euclidean": PASS,
    "umap_kernels.hamming": PASS,
    "umap_kernels.canberra": PASS,
    "umap_kernels.bray_curtis": PASS,
    "umap_kernels.jaccard": PASS,
    "umap_kernels.haversine": PASS,
    "umap_kernels.clip": PASS,
    "umap_kernels.rdist": PASS,
    "umap_kernels.tau_rand_int": PASS,
    "umap_kernels.norm": PASS,
    # PyNNDescent (BSD-2-Clause)
    "pynndescent_kernels.tau_rand_int": PASS,
    "pynndescent_kernels.rejection_sample": PASS,
    "pynndescent_kernels.siftdown": PASS,
    "pynndescent_kernels.has_been_visited": PASS,
    "pynndescent_kernels.mark_visited": PASS,
    "pynndescent_kernels.simple_heap_push": PASS,
    "pynndescent_kernels.checked_heap_push": PASS,
    # PyOD (BSD-2-Clause)
    "pyod_kernels._wcos": PASS,
    "pyod_kernels._aad": PASS,
    "pyod_kernels._wrap_around_discrepancy": PASS,
    "pyod_kernels._pairwise_distances_no_broadcast_helper": PASS,
    "pyod_kernels._get_perplexity": PASS,
    # STUMPY (BSD-3-Clause)
    "stumpy_kernels._sliding_dot_product": PASS,
    "stumpy_kernels._welford_nanvar": PASS,
    "stumpy_kernels._p_norm_distance_profile": PASS,
    "stumpy_kernels._count_diagonal_ndist": PASS,
    # tslearn (BSD-2-Clause)
    "tslearn_kernels._njit_local_squared_dist": PASS,
    "tslearn_kernels._njit_acc_matrix_from_dist_matrix": PASS,
    "tslearn_kernels.njit_lcss_accumulated_matrix_from_dist_matrix": PASS,
    "tslearn_kernels._njit_softmin3": PASS,
    "tslearn_kernels._njit_soft_dtw": PASS,
    # aeon (BSD-3-Clause)
    "aeon_kernels._univariate_squared_distance": PASS,
    "aeon_kernels._squared_distance": PASS,
    "aeon_kernels._univariate_manhattan_distance": PASS,
    "aeon_kernels._univariate_minkowski_distance": PASS,
    "aeon_kernels._dtw_distance": PASS,
    "aeon_kernels._dtw_distance_sakoe_equal": PASS,
    "aeon_kernels._dtw_cost_matrix": PASS,
    "aeon_kernels._itakura_parallelogram": PASS,
    "aeon_kernels._sakoe_chiba_bounds": PASS,
    "aeon_kernels._sakoe_chiba_bounding": PASS,
    # librosa (ISC)
    "librosa_kernels.__num_two_factors": PASS,
    "librosa_kernels.__o_fold": PASS,
    "librosa_kernels.__bo_fold": PASS,
    "librosa_kernels.__fifth_search": PASS,
    "librosa_kernels.__window_ss_fill": PASS,
    "librosa_kernels.__overlap_add": PASS,
    "librosa_kernels.__lpc": PASS,
    "librosa_kernels.__dtw_calc_accu_cost": PASS,
    "librosa_kernels.__match_events_helper": PASS,
    "librosa_kernels.__shear_dense": PASS,
    # pvlib-python (BSD-3-Clause)
    "pvlib_kernels.julian_day_dt": PASS,
    "pvlib_kernels.sum_mult_cos_add_mult": PASS,
    "pvlib_kernels.heliocentric_latitude": PASS,
    "pvlib_kernels.longitude_obliquity_nutation": PASS,
    "pvlib_kernels.mean_ecliptic_obliquity": PASS,
    "pvlib_kernels.geocentric_sun_right_ascension": PASS,
    "pvlib_kernels.atmospheric_refraction_correction": PASS,
    "pvlib_kernels.topocentric_astronomers_azimuth": PASS,
    "pvlib_kernels.equation_of_time": PASS,
    "pvlib_kernels.solar_position_loop": PASS,
    # pyts (BSD-3-Clause)
    "pyts_kernels._paa": PASS,
    "pyts_kernels._gasf": PASS,
    "pyts_kernels._markov_transition_matrix": PASS,
    "pyts_kernels._markov_transition_field": PASS,
    "pyts_kernels._aggregated_markov_transition_field": PASS,
    "pyts_kernels._uniform_bins": PASS,
    "pyts_kernels._digitize_2d": PASS,
    "pyts_kernels._accumulated_cost_matrix_region": PASS,
    "pyts_kernels._accumulated_cost_matrix_no_region": PASS,
    "pyts_kernels._lower_bound_yi_x_y": PASS,
    "pyts_kernels._warping_envelope_2d": PASS,
    "pyts_kernels.apply_one_kernel_one_sample": PASS,
    "pyts_kernels.apply_all_kernels": PASS,
    # resampy (ISC)
    "resampy_kernels._resample_loop": PASS,
    # hapsira (MIT)
    "hapsira_kernels.hyp2f1b": PASS,
    "hapsira_kernels.stumpff_c2": PASS,
    "hapsira_kernels.stumpff_c3": PASS,
    "hapsira_kernels.norm": PASS,
    "hapsira_kernels.nu_to_E": PASS,
    "hapsira_kernels.nu_to_F": PASS,
    "hapsira_kernels.E_to_nu": PASS,
    "hapsira_kernels.F_to_nu": PASS,
    "hapsira_kernels.M_to_D": PASS,
    "hapsira_kernels.E_to_M": PASS,
    "hapsira_kernels.F_to_M": PASS,
    "hapsira_kernels.fp_angle": PASS,
    "hapsira_kernels._kepler_equation": PASS,
    "hapsira_kernels._kepler_equation_prime": PASS,
    "hapsira_kernels.eccentricity_vector": PASS,
    "hapsira_kernels.rv_pqw": PASS,
    "hapsira_kernels.coe2mee": PASS,
    "hapsira_kernels.rv2coe": PASS,
    "hapsira_kernels.mee2coe": PASS,
    "hapsira_kernels.danby_coe": PASS,
    "hapsira_kernels.markley_coe": PASS,
    # numbagg (BSD-3-Clause)
    "numbagg_kernels.move_mean": PASS,
    "numbagg_kernels.move_sum": PASS,
    "numbagg_kernels.move_std": PASS,
    "numbagg_kernels.move_exp_nancount": PASS,
    "numbagg_kernels.move_exp_nanmean": PASS,
    "numbagg_kernels.allnan": PASS,
    "numbagg_kernels.nancount": PASS,
    "numbagg_kernels.nanmean": PASS,
    "numbagg_kernels.nanvar": PASS,
    "numbagg_kernels.group_nanmean": PASS,
    "numbagg_kernels.group_nansum": PASS,
    # pandas (BSD-3-Clause)
    "pandas_kernels.is_monotonic_increasing": PASS,
    "pandas_kernels.add_mean": PASS,
    "pandas_kernels.remove_mean": PASS,
    "pandas_kernels.sliding_mean": PASS,
    "pandas_kernels.add_var": PASS,
    "pandas_kernels.remove_var": PASS,
    "pandas_kernels.sliding_var": PASS,
    # trackpy (BSD-3-Clause)
    "trackpy_kernels._numba_subnet_norecur": PASS,
    "trackpy_kernels._numba_refine_2D": PASS,
    "trackpy_kernels._numba_refine_2D_c": PASS,
    "trackpy_kernels._numba_refine_2D_c_a": PASS,
    # numba-stats (MIT)
    "numba_stats_kernels._trans": PASS,
    "numba_stats_kernels._erf_inplace": PASS,
    "numba_stats_kernels._erfc_inplace": PASS,
    "numba_stats_kernels._logpdf1": PASS,
    "numba_stats_kernels._cdf1": PASS,
    "numba_stats_kernels._logpdf": PASS,
    "numba_stats_kernels._pdf": PASS,
    "numba_stats_kernels._cdf": PASS,
    "numba_stats_kernels._density": PASS,
    "numba_stats_kernels._de_castlejau": PASS,
    "numba_stats_kernels._beta_int": PASS,
    "numba_stats_kernels._integral": PASS,
    "numba_stats_kernels._log_powerlaw": PASS,
    "numba_stats_kernels._powerlaw_integral": PASS,
    "numba_stats_kernels._normal_integral": PASS,
    "numba_stats_kernels._powerlaw_ppf": PASS,
    "numba_stats_kernels._log_density": PASS,
    # sgkit (Apache-2.0)
    "sgkit_kernels.count_alleles": PASS,
    "sgkit_kernels._classify_hom": PASS,
    "sgkit_kernels.count_hom": PASS,
    "sgkit_kernels.euclidean_map_cpu": PASS,
    "sgkit_kernels.correlation_map_cpu": PASS,
    "sgkit_kernels.correlation_reduce_cpu": PASS,
    "sgkit_kernels.allele_matching_diag": PASS,
    "sgkit_kernels.allele_matching_block": PASS,
    "sgkit_kernels._convert_probability_to_call": PASS,
    "sgkit_kernels._biallelic_genotype_index": PASS,
    "sgkit_kernels.biallelic_genotype_call_index": PASS,
    "sgkit_kernels._count_biallelic_genotypes": PASS,
    "sgkit_kernels._comb": PASS,
    "sgkit_kernels._comb_with_replacement": PASS,
    "sgkit_kernels._sorted_genotype_index": PASS,
    "sgkit_kernels.sorted_genotype_call_index": PASS,
    "sgkit_kernels._count_sorted_genotypes": PASS,
    # cooltools (MIT)
    "cooltools_kernels._logbins_numba": PASS,
    "cooltools_kernels.observed_over_expected": PASS,
    "cooltools_kernels.iterative_correction_symmetric": PASS,
    "cooltools_kernels.iterative_correction_asymmetric": PASS,
    "cooltools_kernels._log_thin": PASS,
    "cooltools_kernels._log_smooth_numba": PASS,
    # scanpy (BSD-3-Clause)
    "scanpy_kernels._chan_combine": PASS,
    "scanpy_kernels._chan_combine_blocks": PASS,
    "scanpy_kernels._chan_accumulate": PASS,
    "scanpy_kernels._vars_rest": PASS,
    "scanpy_kernels.rankdata": PASS,
    "scanpy_kernels._tiecorrect": PASS,
    "scanpy_kernels._create_regressor_categorical": PASS,
    "scanpy_kernels.get_resid": PASS,
    "scanpy_kernels._sparse_nanmean_within_slot": PASS,
    "scanpy_kernels._sparse_nanmean_across_slots": PASS,
    "scanpy_kernels.top_segment_proportions_sparse_csr": PASS,
    # Datashader (BSD-3-Clause)
    "datashader_kernels.isnull": PASS,
    "datashader_kernels.nanmax_in_place": PASS,
    "datashader_kernels.nansum_in_place": PASS,
    "datashader_kernels.shift_and_insert": PASS,
    "datashader_kernels._nanmax_n_impl": PASS,
    "datashader_kernels.nanmax_n_in_place_3d": PASS,
    "datashader_kernels.nanmin_n_in_place_4d": PASS,
    "datashader_kernels.row_min_in_place": PASS,
    "datashader_kernels.row_max_n_in_place_3d": PASS,
    "datashader_kernels.distance_between": PASS,
    "datashader_kernels.normalize_gradients": PASS,
    "datashader_kernels.smooth_segment": PASS,
    "datashader_kernels.resample_segment": PASS,
    "datashader_kernels._downsample_2d_mean": PASS,
    "datashader_kernels.infer_interval_breaks_2d": PASS,
    "datashader_kernels.extract_scaled": PASS,
    "datashader_kernels.over": PASS,
    "datashader_kernels.max_arr": PASS,
    "datashader_kernels._cooling": PASS,
    # MNE-Python (BSD-3-Clause)
    "mne_kernels.bincount": PASS,
    "mne_kernels._arange_div": PASS,
    "mne_kernels._masked_sum": PASS,
    "mne_kernels._masked_sum_power": PASS,
    "mne_kernels._mark_inner": PASS,
    "mne_kernels._quat_to_rot": PASS,
    "mne_kernels._one_rot_to_quat": PASS,
    "mne_kernels._fit_matched_points": PASS,
    "mne_kernels._chpi_objective": PASS,
    "mne_kernels._jit_cross": PASS,
    "mne_kernels._accumulate_normals": PASS,
    "mne_kernels._get_tri_dist": PASS,
    "mne_kernels._nearest_tri_edge": PASS,
    "mne_kernels._get_solids": PASS,
    "mne_kernels._toeplitz_dot": PASS,
    "mne_kernels._edge_correct": PASS,
    # sktime (BSD-3-Clause)
    "sktime_kernels.count_above_mean": PASS,
    "sktime_kernels.std": PASS,
    "sktime_kernels.slope": PASS,
    "sktime_kernels.fisher_score": PASS,
    "sktime_kernels.unique_count": PASS,
    "sktime_kernels.z_normalise_series_2d": PASS,
    # ArviZ (Apache-2.0)
    "arviz_kernels.stats_variance_1d": PASS,
    "arviz_kernels._angle": PASS,
    "arviz_kernels.histogram": PASS,
    "arviz_kernels._cov_1d": PASS,
}

_MODULES = {}


def load(stem):
    """The kernel file `tests/realworld/<stem>.py`, imported once."""
    if stem not in _MODULES:
        path = CORPUS / f"{stem}.py"
        spec = importlib.util.spec_from_file_location(f"realworld_{stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _MODULES[stem] = module
    return _MODULES[stem]


def kernel(name):
    """(the oracle, a function giving the compiled callable, the arguments,
    the source file, the kernel's line span) of a kernel of the table."""
    stem, func = name.split(".")
    module = load(stem)
    obj = getattr(module, func)
    args = getattr(module, f"args_{func}")()
    if isinstance(obj, postc.UFunc):
        oracle = np.vectorize(obj.py_func, otypes=[np.float64])
        compiled = obj.compiled  # the numpy.ufunc (compiles now)
        py = obj.py_func
    else:
        oracle = obj
        compiled = lambda: postc.jit(obj)  # noqa: E731  (compiles on the first call)
        py = obj
    lines, first = inspect.getsourcelines(py)
    return oracle, compiled, args, CORPUS / f"{stem}.py", (first, first + len(lines) - 1)


def same(got, expected, what):
    """Exact for integers and bools, within a tight relative tolerance for
    floats; arrays also by dtype and shape."""
    if isinstance(expected, np.ndarray):
        got_a = np.asarray(got)
        assert got_a.dtype == expected.dtype, f"{what}: dtype {got_a.dtype}, expected {expected.dtype}"
        assert got_a.shape == expected.shape, f"{what}: shape {got_a.shape}, expected {expected.shape}"
    expected_a = np.asarray(expected)
    if expected_a.dtype.kind in "fc":
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0, err_msg=what)
    else:
        np.testing.assert_array_equal(got, expected, err_msg=what)


def run(name):
    """Runs a kernel both ways; returns PASS or the refusal's
    ("error", first diagnostic, location). Raises AssertionError on a
    disagreement."""
    oracle, compiled, args, path, span = kernel(name)
    oracle_args = copy.deepcopy(args)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = oracle(*oracle_args)
    compiled_args = copy.deepcopy(args)
    try:
        got = compiled()(*compiled_args)
    except postc.CompileError as e:
        text = str(e)
        first = next(line for line in text.splitlines() if line.startswith("error: "))
        where = re.search(r"┌─ (.*):(\d+):(\d+)", text)
        return ("error", first[len("error: "):], where and (where.group(1), int(where.group(2))), path, span)
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), f"{name}: result {got!r}"
        for k, (g, x) in enumerate(zip(got, expected)):
            same(g, x, f"{name}: result {k}")
    elif expected is None:
        assert got is None, f"{name}: returned {got!r}, expected None"
    else:
        same(got, expected, f"{name}: result")
    for k, (g, x) in enumerate(zip(compiled_args, oracle_args)):
        if isinstance(x, np.ndarray):
            same(g, x, f"{name}: argument {k} after the call")
    return PASS


OUTCOMES = {}


def _param(name):
    expected = EXPECTED[name]
    if expected != PASS and expected[0] == "wrong":
        # the disagreement is the AssertionError `run` raises
        return pytest.param(name, marks=pytest.mark.xfail(
            strict=True, raises=AssertionError, reason=f"compiler bug: {expected[1]}"))
    return name


@pytest.mark.parametrize("name", [_param(n) for n in sorted(EXPECTED)])
def test_kernel(name):
    expected = EXPECTED[name]
    outcome = run(name)
    OUTCOMES[name] = outcome
    if expected != PASS and expected[0] == "wrong":
        pytest.fail(f"{name} was recorded as a wrong result; it now gives {outcome if outcome == PASS else outcome[:2]}: update EXPECTED")
    if expected == PASS:
        assert outcome == PASS, f"{name} was expected to compile and agree; it is refused: {outcome[1]}"
        return
    assert outcome != PASS, f"{name} now compiles and agrees: record it as PASS in EXPECTED"
    _, message, where, path, (first, last) = outcome
    assert expected[1] in message, f"{name}: first diagnostic {message!r}, expected {expected[1]!r}"
    assert where is not None, f"{name}: the diagnostic is not located"
    # in the kernel, or in a function of its file that it calls
    assert pathlib.Path(where[0]) == path and 1 <= where[1] <= path.read_text().count("\n"), (
        f"{name}: the diagnostic is located at {where}, not in the kernel's file {path}")


def test_corpus_is_whole():
    """Every kernel file's recipes are in the table, and the other way round;
    the corpus keeps at least 30 kernels."""
    stems = {name.split(".")[0] for name in EXPECTED}
    assert stems == {p.stem for p in CORPUS.glob("*.py") if p.stem != "report"}
    recipes = set()
    for stem in stems:
        module = load(stem)
        recipes |= {f"{stem}.{n[len('args_'):]}" for n in vars(module) if n.startswith("args_")}
    assert recipes == set(EXPECTED)
    assert len(EXPECTED) >= 30


def summary():
    """`N of M compile and agree` and the blocking constructs by count."""
    passed = sum(1 for v in EXPECTED.values() if v == PASS)
    wrongs = sum(1 for v in EXPECTED.values() if v != PASS and v[0] == "wrong")
    constructs = collections.Counter(v[2] for v in EXPECTED.values() if v != PASS)
    lines = [f"real-world kernels: {passed} of {len(EXPECTED)} compile and agree"
             + (f"; {wrongs} compile{'s' if wrongs == 1 else ''} and disagree{'s' if wrongs == 1 else ''}"
                f" (compiler bug{'' if wrongs == 1 else 's'})" if wrongs else "")]
    lines += [f"  {n:3d}  {c}" for c, n in constructs.most_common()]
    return "\n".join(lines)


def test_summary(capsys):
    """Prints the summary (shown with `-s` or in the report of a failure),
    and checks it against the outcomes this run saw."""
    seen = {k: v for k, v in OUTCOMES.items()}
    for name, outcome in seen.items():
        assert (outcome == PASS) == (EXPECTED[name] == PASS), name
    with capsys.disabled():
        print("\n" + summary())
