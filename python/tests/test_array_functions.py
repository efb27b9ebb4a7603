"""NumPy's array functions compiled (tests/py/array_functions.py) against
NumPy itself on random inputs from Python: `np.sort` of every real dtype
with NaNs, `np.searchsorted` of many values, the NaN-ignoring reductions
and the norms; NumPy's ValueErrors reach the caller as ValueErrors with
NumPy's message."""
import pathlib
import warnings

import numpy as np
import pytest

import postc

SOURCE = pathlib.Path(__file__).resolve().parent.parent.parent / "tests" / "py" / "array_functions.py"


@pytest.fixture(scope="module")
def m():
    return postc.compile(str(SOURCE))


def with_nans(rng, n, dtype=np.float64):
    a = rng.standard_normal(n).astype(dtype)
    a[rng.random(n) < 0.2] = np.nan
    return a


@pytest.mark.parametrize("n", [0, 1, 2, 15, 16, 17, 100, 1000, 4099])
def test_sort_matches_numpy(m, n):
    rng = np.random.default_rng(n)
    for func, a in [
        (m.sorted_f64, with_nans(rng, n)),
        (m.sorted_f32, with_nans(rng, n, np.float32)),
        (m.sorted_i32, rng.integers(-50, 50, n).astype(np.int32)),
        (m.sorted_u8, rng.integers(0, 256, n).astype(np.uint8)),
        (m.sorted_bool, rng.random(n) < 0.5),
    ]:
        got = func(a)
        assert got.dtype == a.dtype
        np.testing.assert_array_equal(got, np.sort(a))
        # A strided, reversed view sorts the same elements.
        view = np.repeat(a, 2)[::-2]
        np.testing.assert_array_equal(func(view), np.sort(view))


def test_sort_in_place_of_a_view(m):
    rng = np.random.default_rng(3)
    base = with_nans(rng, 200)
    expected = base.copy()
    expected[1::3] = np.sort(expected[1::3])
    m.sort_in_place(base[1::3])
    np.testing.assert_array_equal(base, expected)


def test_searchsorted_matches_numpy(m):
    rng = np.random.default_rng(4)
    a = np.sort(with_nans(rng, 300))
    v = np.concatenate([with_nans(rng, 200), a[::7], [np.inf, -np.inf]])
    np.testing.assert_array_equal(m.search_many(a, v), np.searchsorted(a, v, side="right"))
    for x in v[:50]:
        assert m.search_left(a, x) == np.searchsorted(a, x)
        assert m.search_right(a, x) == np.searchsorted(a, x, side="right")


def test_nan_reductions_match_numpy(m):
    rng = np.random.default_rng(5)
    a = with_nans(rng, 257)
    assert m.nanargmin_f64(a) == np.nanargmin(a)
    assert m.nanmin_f64(a.reshape(1, -1)) == np.nanmin(a)
    np.testing.assert_allclose(m.nansum_f64(a), np.nansum(a), rtol=1e-12)
    np.testing.assert_allclose(m.nanmean_f64(a), np.nanmean(a), rtol=1e-12)
    np.testing.assert_allclose(m.nanvar_f64(a), np.nanvar(a), rtol=1e-12)
    np.testing.assert_allclose(m.nanvar_ddof(a, 3), np.nanvar(a, ddof=3), rtol=1e-12)
    np.testing.assert_allclose(m.nanstd_f64(a), np.nanstd(a), rtol=1e-12)
    np.testing.assert_allclose(m.norm_default(np.nan_to_num(a)), np.linalg.norm(np.nan_to_num(a)), rtol=1e-12)
    np.testing.assert_allclose(m.norm_three(np.nan_to_num(a)), np.linalg.norm(np.nan_to_num(a), 3), rtol=1e-12)


@pytest.mark.parametrize(
    "name, arg",
    [
        ("nanargmin", np.array([np.nan, np.nan])),
        ("nanargmin", np.array([], np.float64)),
        ("nanmin", np.zeros((2, 0))),
    ],
)
def test_numpy_value_errors_reach_the_caller(m, name, arg):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError) as numpy_error:
            getattr(np, name)(arg)
    func = {"nanargmin": m.nanargmin_f64, "nanmin": m.nanmin_f64}[name]
    with pytest.raises(ValueError, match="^" + str(numpy_error.value) + " at "):
        func(arg)
    # The interpreter survived and the next call works.
    assert m.nanargmin_f64(np.array([2.0, np.nan, 1.0])) == 2
