"""Array views (the IR's `view`) through the package, on the functions of
tests/programs/views.pir: a returned view is a NumPy array with the view's
shape and strides whose `.base` keeps its memory alive — the argument it
lies in, or the arrays of the call it was made in, which the view owns —
and writes through a view land in the base. Checked again in a fresh
interpreter whose allocators poison freed memory."""
import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import postc

from conftest import REPO

VIEWS = REPO / "tests" / "programs" / "views.pir"


@pytest.fixture(scope="module")
def m():
    return postc.compile(VIEWS)


def test_a_returned_view_of_an_argument_keeps_it_alive(m):
    x = np.arange(9.0)
    r = m.odd_elems(x)
    assert r.tolist() == [1.0, 3.0, 5.0, 7.0]
    assert r.strides == (16,) and np.shares_memory(r, x)
    del x
    gc.collect()
    junk = [np.full(9, -1.0) for _ in range(100)]
    assert r.tolist() == [1.0, 3.0, 5.0, 7.0]
    del junk
    rev = np.arange(6.0)[::-1]
    assert m.odd_elems(rev).tolist() == [4.0, 2.0, 0.0]


def test_a_returned_view_of_an_allocation_owns_it(m):
    r = m.squares_rev(6)
    assert r.tolist() == [25, 16, 9, 4, 1, 0]
    assert r.strides == (-8,) and r.base is not None
    t = m.squares_rev_tail(6)
    assert t.tolist() == [16, 9, 4, 1, 0]
    for _ in range(50):
        m.squares_rev(6)
    junk = [np.full(6, -1, np.int64) for _ in range(100)]
    assert r.tolist() == [25, 16, 9, 4, 1, 0] and t.tolist() == [16, 9, 4, 1, 0]
    del junk
    assert m.squares_rev(0).tolist() == []


def test_writes_through_a_view_land_in_the_base(m):
    a = np.zeros((3, 4), np.int64)
    assert m.fill_transposed(a) is None
    assert a.tolist() == [[100 * i + j for j in range(4)] for i in range(3)]
    big = np.zeros((6, 5), np.int64)
    sub = big[::2, ::-1]
    m.fill_transposed(sub)
    assert sub.tolist() == [[100 * i + j for j in range(5)] for i in range(3)]
    assert not big[1::2].any()


def test_an_invalid_view_raises(m):
    a = np.arange(12.0).reshape(3, 4)
    assert m.row_wsum(a, 2) == sum((j + 1) * a[2, j] for j in range(4))
    with pytest.raises(Exception, match="view out of bounds: it reaches outside its base array"):
        m.row_wsum(a, 3)
    with pytest.raises(Exception, match="invalid view: size -1 of axis 0 is negative"):
        m.squares_rev_tail(0)
    with pytest.raises(Exception, match="multiples of the element size 8"):
        m.from_byte(np.arange(4.0), 4)


POISONED = """
import gc
import numpy as np
import postc

m = postc.compile(%r)
views = [m.squares_rev_tail(7) for _ in range(20)] + [m.odd_elems(np.arange(9.0)) for _ in range(20)]
gc.collect()
junk = [np.full(7, -1, np.int64) for _ in range(200)] + [np.full(9, -1.0) for _ in range(200)]
for v in views[:20]:
    assert v.tolist() == [25, 16, 9, 4, 1, 0], v
for v in views[20:]:
    assert v.tolist() == [1.0, 3.0, 5.0, 7.0], v
del views
gc.collect()
print("ok")
"""


def test_views_under_a_debug_allocator(tmp_path):
    env = dict(os.environ, POSTC_CACHE_DIR=str(tmp_path), PYTHONMALLOC="debug", MALLOC_PERTURB_="165",
               MALLOC_CHECK_="3")
    r = subprocess.run([sys.executable, "-c", POISONED % str(VIEWS)], env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout == "ok\n"
