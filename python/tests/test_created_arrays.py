"""Arrays created in compiled code (np.zeros, np.full, np.arange, ...) and
returned: the caller gets a NumPy array that owns its memory (the tensor's
deleter runs when the array dies), of any rank, created many times over
without the process's memory growing; reductions give NumPy's dtypes and
raise NumPy's ValueError on an empty array (or an empty axis)."""
import gc
import resource

import numpy as np
import pytest

import postc

SOURCE = '''
import numpy as np
from postyp import Float64, Int32, Int64

def grid(n: Int64, m: Int64) -> Float64[:, :]:
    g = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            g[i, j] = i * 10.0 + j
    return g

def ramp(n: Int64) -> Int32[:]:
    return np.arange(n, dtype=np.int32)

def through(n: Int64) -> Float64:
    a = np.full((n, 3), 2.0)
    return a.sum() + np.mean(a)

def smallest(a: Float64[:]) -> Float64:
    return np.min(a)

def isum(a: Int32[:]) -> Int64:
    return np.sum(a)

def column_totals(a: Int32[:, :]) -> Int64[:]:
    return np.sum(a, axis=0)

def row_argmins(a: Float64[:, :]) -> Int64[:]:
    return a.argmin(axis=-1)

def running(a: Int32[:, :]) -> Int64[:]:
    return np.cumsum(a)
'''


@pytest.fixture(scope="module")
def m():
    return postc.compile(SOURCE)


def test_returned_fresh_arrays_own_their_memory(m):
    g = m.grid(3, 4)
    assert isinstance(g, np.ndarray) and g.dtype == np.float64 and g.shape == (3, 4)
    assert g.flags.c_contiguous and g.flags.writeable and g.base is not None
    np.testing.assert_array_equal(g, np.add.outer(np.arange(3) * 10.0, np.arange(4.0)))
    h = m.grid(2, 2)
    g[0, 0] = 99.0  # the caller's memory, apart from every other call's
    assert h[0, 0] == 0.0 and g[0, 0] == 99.0
    r = m.ramp(5)
    assert r.dtype == np.int32 and r.tolist() == [0, 1, 2, 3, 4]
    assert m.ramp(0).shape == (0,)


def test_many_returned_arrays_do_not_grow_memory(m):
    def rss_kib():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    for _ in range(2000):  # warm up the allocator and NumPy's caches
        m.grid(16, 16)
    gc.collect()
    before = rss_kib()
    total = 0.0
    for k in range(10_000):
        g = m.grid(32, 32)  # 8 KiB each: 80 MB if none were freed
        total += g[31, 31] + g[k % 32, 0]
        r = m.ramp(64)
        total += r[63]
        total += m.through(8)
    gc.collect()
    assert total > 0
    assert rss_kib() - before < 20_000, "returned arrays were not freed"


def test_reductions_and_their_errors(m):
    assert m.through(4) == 4 * 3 * 2.0 + 2.0
    assert np.isnan(m.smallest(np.array([1.0, np.nan, -1.0])))
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum which has no identity"):
        m.smallest(np.zeros(0))
    s = m.isum(np.full(4, 2**31 - 1, dtype=np.int32))
    assert isinstance(s, np.int64) and s == 4 * (2**31 - 1)
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        m.grid(-1, 2)


def test_reductions_along_an_axis_and_running_sums(m):
    # Int32's extremes: the sums only fit in Int64.
    a = np.where(np.arange(12).reshape(3, 4) % 3 == 0, -(2**31), 2**31 - 1).astype(np.int32)
    for view in (a, np.asfortranarray(a), a[::-1, ::2]):
        got = m.column_totals(view)
        assert got.dtype == np.int64 and got.shape == (view.shape[1],)
        np.testing.assert_array_equal(got, np.sum(view, axis=0))
        flat = m.running(view)
        assert flat.dtype == np.int64
        np.testing.assert_array_equal(flat, np.cumsum(view))
    f = np.array([[3.0, -1.0, -1.0], [np.nan, 2.0, np.nan], [0.5, 0.25, 7.0]])
    np.testing.assert_array_equal(m.row_argmins(f), np.argmin(f, axis=-1))
    np.testing.assert_array_equal(m.row_argmins(f.T), np.argmin(f.T, axis=-1))
    assert m.column_totals(np.zeros((0, 3), np.int32)).tolist() == [0, 0, 0]
    assert m.row_argmins(np.zeros((0, 3))).shape == (0,)
    with pytest.raises(ValueError, match="attempt to get argmin of an empty sequence"):
        m.row_argmins(np.zeros((2, 0)))
