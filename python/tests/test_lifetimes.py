"""A returned array that is an argument is that argument's object, as
CPython would return it, so it keeps its memory (and a view its base)
alive: `a = f(a)` in a loop never reads freed memory, even when the memory
is freed and reused between calls (and under a debug allocator that
poisons freed memory)."""
import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import postc

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "lifetimes.py")


@pytest.fixture(scope="module")
def m():
    return postc.compile(SOURCE)


class HostTensor:
    """A minimal DLPack producer over a NumPy array."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, stream=None, **kwargs):
        return self.a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return (1, 0)


def test_a_returned_argument_is_the_argument(m):
    a = np.arange(5.0)
    assert m.same(a) is a
    v = np.arange(10.0)[::3]
    assert m.same(v) is v
    r = np.arange(6.0)[::-1]
    assert m.same(r) is r
    b = np.arange(12.0).reshape(3, 4)
    assert m.same2(b) is b
    t = b.T
    assert m.same2(t) is t
    f = np.asfortranarray(b)
    assert m.same2(f) is f
    z = np.zeros(0)
    assert m.same(z) is z
    assert m.bump(a) is a and a.tolist() == [1, 2, 3, 4, 5]


def test_the_second_of_two_overlapping_arguments(m):
    a = np.arange(6.0)
    tail = a[1:]
    assert m.second(a, tail) is tail
    assert m.second(a, a) is a


def test_a_dlpack_argument_comes_back_as_the_producer(m):
    p = HostTensor(np.arange(4.0))
    assert m.same(p) is p


def test_a_view_returned_keeps_its_base(m):
    base = np.arange(100.0)
    v = m.same(base[10:20])
    del base
    gc.collect()
    # Reuse the freed size class.
    junk = [np.full(100, -7.0) for _ in range(50)]
    assert v.tolist() == [float(i) for i in range(10, 20)]
    assert v.base is not None and v.base.shape == (100,)
    del junk


def test_a_equals_f_of_a_in_a_loop(m):
    a = np.zeros(1000)
    for i in range(3000):
        a = m.bump(a)
        if i % 100 == 0:
            gc.collect()
            junk = [np.full(1000, -1.0) for _ in range(4)]  # reuse freed blocks
            del junk
    assert (a == 3000.0).all()


def test_returned_arrays_passed_back(m):
    """An array the library returned (which owns its tensor) passed back in
    and returned: still the same object, its memory alive."""
    a = m.ramp(1000)
    for _ in range(500):
        a = m.bump(a)
        junk = m.ramp(1000)  # freed and reused by the next call
        del junk
    assert (a == np.arange(1000.0) + 500).all()
    fresh = m.ramp(3)
    assert fresh.base is not None and fresh.tolist() == [0, 1, 2]


LOOP = f"""
import gc, numpy as np, postc
m = postc.compile({SOURCE!r})
a = np.zeros(4096)
b = m.ramp(4096)
for i in range(2000):
    a = m.bump(a)
    b = m.bump(m.same(b))
    if i % 50 == 0:
        gc.collect()
    junk = [np.empty(4096) for _ in range(3)]
    del junk
assert (a == 2000.0).all(), a[:4]
assert (b == np.arange(4096.0) + 2000).all(), b[:4]
v = m.same(np.arange(64.0)[8:16])
gc.collect()
junk = [np.full(64, -1.0) for _ in range(100)]
assert v.tolist() == [float(i) for i in range(8, 16)], v
print("ok")
"""


def test_under_a_debug_allocator(tmp_path):
    """The loops again in a fresh interpreter whose allocators poison freed
    memory (CPython's debug allocator; glibc's MALLOC_PERTURB_, which NumPy's
    data buffers come from) and check the heap (MALLOC_CHECK_): a read of
    freed memory gives wrong values, a bad free aborts."""
    env = dict(os.environ, POSTC_CACHE_DIR=str(tmp_path), PYTHONMALLOC="debug", MALLOC_PERTURB_="165",
               MALLOC_CHECK_="3")
    r = subprocess.run([sys.executable, "-c", LOOP], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout == "ok\n"
