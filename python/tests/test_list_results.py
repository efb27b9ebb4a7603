"""Functions that return lists of numbers, called from Python: the result
is a Python `list` of Python numbers (`int`, `float`, `bool`), alone or as
an element of a tuple result; CPython's list holds the same values (an
element it computes from an array's being a NumPy scalar there). The oracle is
CPython running the same source uncompiled (with the `postyp`
stand-ins)."""
import importlib.util

import numpy as np
import pytest

SOURCE = '''\
import numpy as np
from postyp import Bool, Float64, Int64


def sliding_mean(values: Float64[:], start: Int64[:], end: Int64[:]):
    """pandas' `sliding_mean` kernel, as its groupby and rolling code
    returns a result and the positions of its NaNs."""
    N = len(start)
    output = np.empty(N, dtype=np.float64)
    for i in range(N):
        s = 0.0
        n = 0
        for j in range(start[i], end[i]):
            s += values[j]
            n += 1
        if n > 0:
            output[i] = s / n
        else:
            output[i] = np.nan
    # na_position is empty list since float64 can already hold nans
    na_pos = [0 for i in range(0)]
    return output, na_pos


def evens(n: Int64):
    xs = [i for i in range(n) if i % 2 == 0]
    return xs


def grown(n: Int64):
    out = []
    for i in range(n):
        out.append(i * i)
    out.append(-1)
    return out


def halves(a: Float64[:]):
    hs = [x / 2 for x in a]
    return hs


def signs(a: Float64[:]):
    positive = [x > 0 for x in a]
    return positive, len(a)


def kept(a: Float64[:], lo: Float64):
    picked = [x for x in a if x > lo]
    if len(picked) == 0:
        picked.append(lo)
    return picked, np.array(picked) * 2.0, (len(picked), lo)


def empty_floats(n: Int64):
    xs = [0.5 * i for i in range(n, 0)]
    return xs
'''


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    """The source compiled by `postc.compile`, and imported uncompiled."""
    import postc

    path = tmp_path_factory.mktemp("lists") / "list_source.py"
    path.write_text(SOURCE)
    spec = importlib.util.spec_from_file_location("list_source", path)
    uncompiled = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(uncompiled)
    return postc.compile(path), uncompiled


def assert_same(got, want):
    """`got` is what CPython gives, types included: a list of Python
    numbers of the same types and values, a tuple of the same parts."""
    assert type(got) is type(want)
    if isinstance(want, list):
        # An element CPython computes from an array's is a NumPy scalar
        # (`np.float64`, a float; `np.bool_`); the compiled list holds the
        # Python number of the same value.
        python = {np.float64: float, np.int64: int, np.bool_: bool}
        assert [type(x) for x in got] == [python.get(type(x), type(x)) for x in want]
        assert got == want
    elif isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            if isinstance(w, np.ndarray):
                assert isinstance(g, np.ndarray) and g.dtype == w.dtype
                np.testing.assert_array_equal(g, w)
            elif isinstance(w, (list, tuple)):
                assert_same(g, w)
            else:
                assert g == w
    else:
        raise AssertionError(f"unexpected result {want!r}")


@pytest.mark.parametrize("name,args", [
    ("sliding_mean", (np.array([1.0, 2.0, 4.0, 8.0]), np.array([0, 1, 3, 2]), np.array([2, 4, 3, 4]))),
    ("sliding_mean", (np.zeros(0), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))),
    ("evens", (9,)),
    ("evens", (0,)),
    ("grown", (5,)),
    ("grown", (0,)),
    ("halves", (np.array([1.0, -3.0, 0.25]),)),
    ("halves", (np.arange(6.0)[::-2],)),
    ("signs", (np.array([1.0, -3.0, 0.0, 2.0]),)),
    ("kept", (np.array([1.0, -3.0, 0.25, 9.0]), 0.5)),
    ("kept", (np.array([1.0, -3.0]), 5.0)),
    ("empty_floats", (3,)),
])
def test_results_are_python_lists_as_cpython_gives(modules, name, args):
    compiled, uncompiled = modules
    assert_same(getattr(compiled, name)(*args), getattr(uncompiled, name)(*args))


def test_the_pandas_kernel_gives_an_empty_list_of_positions(modules):
    compiled, _ = modules
    output, na_pos = compiled.sliding_mean(np.array([1.0, 3.0]), np.array([0, 1]), np.array([2, 1]))
    assert na_pos == [] and type(na_pos) is list
    np.testing.assert_array_equal(output, [2.0, np.nan])


def test_elements_are_python_numbers(modules):
    compiled, _ = modules
    assert [type(x) for x in compiled.evens(5)] == [int, int, int]
    assert [type(x) for x in compiled.halves(np.array([1.0, 2.0]))] == [float, float]
    bools, n = compiled.signs(np.array([1.0, -1.0]))
    assert bools == [True, False] and [type(x) for x in bools] == [bool, bool]
    # A list result is the caller's own: changing it changes nothing else.
    first = compiled.grown(3)
    first.append(99)
    assert compiled.grown(3) == [0, 1, 4, -1]


def test_signatures_and_reprs_name_the_list(modules):
    compiled, _ = modules
    assert repr(compiled.evens).endswith("-> list[Int64]>")
    assert repr(compiled.sliding_mean).endswith("-> (Float64[]Shape[?], list[Int64])>")
    assert repr(compiled.halves).endswith("-> list[Float64]>")


def test_many_calls_do_not_leak(modules):
    compiled, _ = modules
    a = np.ones(100_000)
    for _ in range(5):
        compiled.halves(a)
    import gc
    import resource
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(100):
        compiled.halves(a)
    gc.collect()
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    # 100 calls each make an array of 0.8 MB and a list of 100,000
    # floats: kept, they would be well over 300 MB.
    assert grown_kib < 64 * 1024


JIT_SOURCE = '''\
import numpy as np
import postc
from postyp import Float64


@postc.jit
def above(a: Float64[:], t: Float64):
    hits = [i for i in range(len(a)) if a[i] > t]
    return hits, np.array(hits)
'''


def test_jit_functions_return_lists(tmp_path):
    path = tmp_path / "jitted_lists.py"
    path.write_text(JIT_SOURCE)
    spec = importlib.util.spec_from_file_location("jitted_lists", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    a = np.array([0.5, 2.0, -1.0, 3.0])
    hits, arr = module.above(a, 1.0)
    want, want_arr = module.above.py_func(a, 1.0)
    assert hits == want == [1, 3] and [type(x) for x in hits] == [int, int]
    np.testing.assert_array_equal(arr, want_arr)
