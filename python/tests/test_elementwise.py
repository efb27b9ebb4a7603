"""Whole-array expressions compiled by the package: each returned result is
a fresh NumPy array equal to what NumPy computes from the same source,
dtype included (NEP 50), broadcasting as NumPy does; a shape mismatch raises
NumPy's ValueError and an in-place cast NumPy refuses is a compile error."""
import numpy as np
import pytest

import postc

SOURCE = '''
import numpy as np
from postyp import Bool, Float32, Float64, Int8, Int32, Int64

def axpy(x: Float64[:], y: Float64[:]) -> Float64[:]:
    return 2.0 * x + y

def mixed(a: Int32[:], b: Float32[:, :]) -> Float64[:, :]:
    return a * b - 1

def narrow(a: Int8[:, :]) -> Int8[:, :]:
    return a * 3 + 1

def chosen(a: Float32[:], lo: Float32) -> Float32[:]:
    return np.where(a > lo, np.sqrt(np.abs(a)), np.clip(a, lo, 0.5))

def mask(a: Int64[:, :], r: Int64[:]) -> Bool[:, :]:
    return (a >= r) & (a != 3)

def scaled(n: Int64) -> Float64[:]:
    a = np.arange(n, dtype=np.float64)
    a *= 0.5
    a += np.minimum(a, 1.0)
    return a
'''

BAD_IN_PLACE = '''
import numpy as np
from postyp import Int64

def bad(n: Int64) -> Int64[:]:
    a = np.zeros(n, dtype=np.int64)
    a += 1.5
    return a
'''


@pytest.fixture(scope="module")
def m():
    return postc.compile(SOURCE)


def same(got, want):
    assert isinstance(got, np.ndarray)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_results_equal_numpy_exactly(m):
    rng = np.random.default_rng(7)
    x, y = rng.standard_normal(1000), rng.standard_normal(1000)
    same(m.axpy(x, y), 2.0 * x + y)
    same(m.axpy(x[::-3], y[:334]), 2.0 * x[::-3] + y[:334])
    same(m.axpy(x[:1], y), 2.0 * x[:1] + y)
    a = rng.integers(-100, 100, 5).astype(np.int32)
    b = rng.standard_normal((3, 5)).astype(np.float32)
    same(m.mixed(a, b), a * b - 1)
    same(m.mixed(a, b.T.copy().T), a * b - 1)
    i8 = rng.integers(-40, 40, (4, 6)).astype(np.int8)
    same(m.narrow(i8), i8 * 3 + 1)
    f = rng.standard_normal(17).astype(np.float32)
    lo = np.float32(-0.25)
    same(m.chosen(f, lo), np.where(f > lo, np.sqrt(np.abs(f)), np.clip(f, lo, 0.5)))
    big = rng.integers(0, 6, (3, 4)).astype(np.int64)
    row = rng.integers(0, 6, 4).astype(np.int64)
    same(m.mask(big, row), (big >= row) & (big != 3))
    want = np.arange(7, dtype=np.float64)
    want *= 0.5
    want += np.minimum(want, 1.0)
    same(m.scaled(7), want)
    same(m.scaled(0), np.zeros(0))


def test_a_shape_mismatch_raises_numpys_error(m):
    with pytest.raises(ValueError, match=r"^operands could not be broadcast together with shapes \(3,\) \(4,\) "):
        m.axpy(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match=r"^operands could not be broadcast together with shapes \(5,\) \(2,4\) "):
        m.mixed(np.ones(5, np.int32), np.ones((2, 4), np.float32))


def test_an_unsafe_in_place_cast_is_refused():
    with pytest.raises(postc.CompileError, match=r"Cannot cast ufunc 'add' output from dtype\('float64'\) to dtype\('int64'\)"):
        postc.compile(BAD_IN_PLACE)
