"""Functions that return tuples, called from Python: the result is a Python
tuple of NumPy scalars and arrays, each array owning its memory as a
single returned array does (an argument returned comes back as that
argument, a view of one keeps it alive). The oracle is CPython running the
same source uncompiled (with the `postyp` stand-ins)."""
import gc
import importlib.util
import sys

import numpy as np
import pytest

SOURCE = '''\
from typing import Tuple

import numpy as np
from postyp import Complex128, Float64, Int64


def stats(a: Float64[:]):
    s = 0.0
    for i in range(len(a)):
        s += a[i]
    return s, len(a), a * 2.0


def scaled(a: Float64[:], k: Float64) -> tuple[Float64[:], Float64]:
    if k > 0:
        return a * k, k
    return (a * -k, -k)


def halves(a: Float64[:]) -> Tuple[Float64[:], Float64[:]]:
    b = a + 1.0
    h = len(b) // 2
    return b[:h], b[h:]


def same_twice(n: Int64) -> tuple[Int64[:], Int64[:]]:
    b = np.zeros(n, dtype=np.int64)
    b[0] = 7
    return b, b


def passthrough(a: Float64[:], z: Complex128):
    return z * 2, a, a[1:]


def report(a: Float64[:], tol: Float64):
    out = a.copy()
    converged = False
    steps = 0
    for k in range(10):
        steps = k + 1
        out = out / 2.0
        if out.max() < tol:
            converged = True
            break
    status = (converged, steps)
    return out, status, out.sum()


def use(a: Float64[:]) -> Float64:
    b, k = scaled(a, 2.0)
    c, m = scaled(a, -3.0)
    return b[0] + k + c[1] * m
'''


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    """The source compiled by `postc.compile`, and imported uncompiled."""
    import postc

    path = tmp_path_factory.mktemp("tuples") / "tuple_source.py"
    path.write_text(SOURCE)
    spec = importlib.util.spec_from_file_location("tuple_source", path)
    uncompiled = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(uncompiled)
    return postc.compile(path), uncompiled


def assert_same(got, want):
    assert type(got) is tuple and len(got) == len(want)
    for g, w in zip(got, want):
        if isinstance(w, tuple):
            assert_same(g, w)
        elif isinstance(w, np.ndarray):
            assert isinstance(g, np.ndarray) and g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)
        else:
            # NumPy scalars of the element's dtype, as a single result is.
            assert isinstance(g, np.generic) and g.dtype == np.asarray(w).dtype and g == w


@pytest.mark.parametrize("name,args", [
    ("stats", (np.array([1.0, 2.5, 4.0]),)),
    ("stats", (np.zeros(0),)),
    ("scaled", (np.array([1.0, -2.0]), 3.0)),
    ("scaled", (np.array([1.0, -2.0]), -0.5)),
    ("halves", (np.arange(5.0),)),
    ("same_twice", (3,)),
    ("passthrough", (np.array([1.0, 2.0, 3.0]), 1 - 2j)),
    ("report", (np.array([4.0, 1.0]), 0.1)),
    ("report", (np.array([4e9, 1.0]), 1e-9)),
])
def test_results_are_python_tuples_as_cpython_gives(modules, name, args):
    compiled, uncompiled = modules
    assert_same(getattr(compiled, name)(*args), getattr(uncompiled, name)(*args))


def test_a_compiled_caller_unpacks_them(modules):
    compiled, uncompiled = modules
    a = np.array([0.5, 1.5, -2.0])
    assert compiled.use(a) == uncompiled.use(a)


def test_each_returned_array_owns_its_memory(modules):
    compiled, _ = modules
    lo, hi = compiled.halves(np.arange(6.0))
    x, y = compiled.same_twice(4)
    # Separate memory: writing one never shows in the other, and each
    # outlives the other.
    x[1] = 5
    assert y[1] == 0
    del lo, x
    gc.collect()
    np.testing.assert_array_equal(hi, [4.0, 5.0, 6.0])
    np.testing.assert_array_equal(y, [7, 0, 0, 0])


def test_returned_arguments_are_the_arguments(modules):
    compiled, _ = modules
    a = np.array([1.0, 2.0, 3.0])
    refs = sys.getrefcount(a)
    z, same, view = compiled.passthrough(a, 2j)
    assert z == 4j and same is a
    # The view lies in the argument's memory and keeps it alive.
    assert np.shares_memory(view, a)
    view[0] = 9.0
    assert a[1] == 9.0
    del same, view
    gc.collect()
    assert sys.getrefcount(a) == refs


def test_signatures_and_reprs_name_the_tuple(modules):
    compiled, _ = modules
    assert repr(compiled.scaled).endswith("-> (Float64[]Shape[?], Float64)>")
    # A tuple inside the result, as the `return` writes it.
    assert repr(compiled.report).endswith("-> (Float64[]Shape[?], (Bool, Int64), Float64)>")


def test_many_calls_do_not_leak(modules):
    compiled, _ = modules
    a = np.ones(100_000)
    for _ in range(5):
        compiled.stats(a)
    import resource
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(200):
        compiled.stats(a)
        compiled.halves(a)
    gc.collect()
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    # 200 calls each return 0.8 MB twice: kept, they would be 320 MB.
    assert grown_kib < 64 * 1024
