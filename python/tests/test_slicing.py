"""NumPy's basic slicing in compiled Python, through the package: a
returned slice is a NumPy array with NumPy's shape and strides that shares
memory with what it was sliced from, and its `.base` keeps that memory
alive (an argument, or an array the call created); an index out of range
raises NumPy's IndexError; writes through a slice land in the argument."""
import gc

import numpy as np
import pytest

import postc

SOURCE = '''
import numpy as np
from postyp import Float64, Int64, Out

def odd_reversed(a: Float64[:]) -> Float64[:]:
    return a[::-1][::2]

def row(a: Float64[:, :], i: Int64) -> Float64[:]:
    return a[i]

def block_t(a: Float64[:, :], r0: Int64, c0: Int64) -> Float64[:, :]:
    return a[r0:, c0::2].T

def made_column(n: Int64, j: Int64) -> Float64[:]:
    g = np.zeros((n, 3))
    for i in range(n):
        for k in range(3):
            g[i, k] = i * 10.0 + k
    return g[:, j]

def flat(a: Float64[:, :]) -> Float64[:]:
    return np.ravel(a)

def negate_column(a: Out[Float64[:, :]], j: Int64) -> None:
    c = a[:, j]
    for k in range(len(c)):
        c[k] = -c[k]
'''


@pytest.fixture(scope="module")
def m():
    return postc.compile(SOURCE)


def same_layout(got, want):
    """The same shape, and the same strides along every axis that has two
    elements or more (an axis of one element never uses its stride, and
    compiled code gives it the base's rather than NumPy's step times it)."""
    return got.shape == want.shape and all(
        g == w for g, w, n in zip(got.strides, want.strides, want.shape) if n > 1)


def churn():
    gc.collect()
    return [np.full(64, -1.0) for _ in range(200)]


def test_returned_slices_match_numpy_and_share_memory(m):
    a = np.arange(11.0)
    r = m.odd_reversed(a)
    np.testing.assert_array_equal(r, a[::-1][::2])
    assert same_layout(r, a[::-1][::2]) and np.shares_memory(r, a)
    g = np.arange(20.0).reshape(4, 5)
    for i in range(-4, 4):
        np.testing.assert_array_equal(m.row(g, i), g[i])
    f = np.asfortranarray(g)
    assert same_layout(m.row(f, 1), f[1])
    for src in (g, f, g[::-1, ::2]):
        want = src[1:, 1::2].T
        got = m.block_t(src, 1, 1)
        assert same_layout(got, want)
        np.testing.assert_array_equal(got, want)
        assert np.shares_memory(got, src)


def test_a_returned_slice_keeps_its_argument_alive(m):
    a = np.arange(9.0) * 3.0
    r = m.odd_reversed(a)
    want = (np.arange(9.0) * 3.0)[::-1][::2].tolist()
    del a
    junk = churn()
    assert r.base is not None and r.tolist() == want
    del junk


def test_a_returned_slice_of_a_created_array_owns_it(m):
    cols = [m.made_column(5, j) for j in range(3)]
    junk = churn()
    for j, c in enumerate(cols):
        assert c.base is not None and c.strides == (24,)
        assert c.tolist() == [i * 10.0 + j for i in range(5)]
    del junk
    assert m.made_column(0, 1).shape == (0,)


def test_an_index_out_of_range_raises_numpys_index_error(m):
    g = np.zeros((3, 2))
    with pytest.raises(IndexError, match=r"index 3 is out of range for axis 0 with size 3"):
        m.row(g, 3)
    with pytest.raises(IndexError, match=r"index -1 is out of range for axis 0 with size 3"):
        m.row(g, -4)
    with pytest.raises(IndexError, match=r"index 2 is out of range for axis 1 with size 2"):
        m.negate_column(g, 2)


def test_writes_through_a_slice_land_in_the_argument(m):
    a = np.arange(12.0).reshape(3, 4)
    want = a.copy()
    want[:, 1] *= -1
    m.negate_column(a, 1)
    np.testing.assert_array_equal(a, want)
    big = np.arange(24.0).reshape(4, 6)
    view = big[::2, ::-1]
    want = big.copy()
    want[::2, ::-1][:, -1] *= -1
    m.negate_column(view, -1)
    np.testing.assert_array_equal(big, want)


def test_ravel_is_a_view_exactly_when_numpy_makes_one(m):
    g = np.arange(12.0).reshape(3, 4)
    for src in (g, g[1:], np.asfortranarray(g), g.T, g[:, ::2], g[::-1], np.zeros((0, 3)), g[:, :1]):
        got, want = m.flat(src), np.ravel(src)
        np.testing.assert_array_equal(got, want)
        assert np.shares_memory(got, src) == np.shares_memory(want, src), src.strides
