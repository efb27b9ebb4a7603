"""Scalars that may be `None` called from Python (docs/python.md, "Values
that may be `None`"): a parameter annotated `T | None` or `Optional[T]`
takes `None` or a number, by position or keyword, or its default; a
result that may be `None` comes back as `None` or the number, also from a
conditional expression with a `None` arm; `== None` and the truth of
such values are CPython's. The oracle
is CPython running the same source uncompiled (with the `postyp`
stand-ins); extension modules give the same (test_pyext.py runs
tests/py/optional_values.py through both)."""
import importlib.util
import inspect
import math

import numpy as np
import pytest

SOURCE = '''\
from typing import Optional

import numpy as np
from postyp import Bool, Float32, Float64, Int64


def scale(x: Float64, tol: Float64 | None = None) -> Float64:
    if tol is None:
        tol = 0.5
    return x * tol


def clip(x: Int64, lo: Optional[Int64], hi: Int64 | None = 10) -> Int64:
    if lo is not None and x < lo:
        return lo
    if hi is not None and x > hi:
        return hi
    return x


def find(a: Float64[:], t: Float64) -> Int64 | None:
    for i in range(len(a)):
        if a[i] == t:
            return i
    return None


def sign(x: Float32) -> Optional[Bool]:
    if x != x:
        return
    return x >= 0


def weight(w: Float32 | None = None) -> Float32 | None:
    if w is None:
        return None
    return w * Float32(2)


def first_or(a: Float64[:], t: Float64, default: Int64 | None = None) -> Int64 | None:
    i = find(a, t)
    if i is None:
        if default is not None:
            return clip(-1, default, hi=None)
        return None
    return i


def positive(x: Float64) -> Float64 | None:
    return x if x > 0.0 else None


def truthy(flag: Bool | None = None, n: Int64 | None = None) -> Int64:
    if flag or n == None:
        return 1
    return 2 if not n else 3


def mean_of(x: Float64[:], weights: Float64[:] | None = None) -> Float64:
    if weights is None:
        return x.sum() / x.size
    return (x * weights).sum() / weights.sum()


def rows_of(a: Int64[:, :], mask: Optional[Bool[:, :]]) -> Int64:
    if mask is None:
        return a.sum()
    return (a * mask).sum()


def unique_counts(x: Float64[:]):
    if x.shape[0] > 0:
        s = np.sort(x)
        unique = np.zeros(s.shape[0])
        counts = np.zeros(s.shape[0], dtype=np.int64)
        unique[0] = s[0]
        counts[0] = 1
        k = 0
        for v in s[1:]:
            if v != unique[k]:
                k += 1
                unique[k] = v
                counts[k] = 1
            else:
                counts[k] += 1
        return unique[: k + 1], counts[: k + 1]
    return None, np.zeros(0, dtype=np.int64)


def first_and_last(x: Int64[:]):
    if x.size == 0:
        return None, -1, None
    first = -1
    last = -1
    for i in range(x.size):
        if x[i] < 0:
            if first < 0:
                first = i
            last = i
    if first < 0:
        return None, x.size, None
    return first, x.size, last


def above(x: Int64[:], t: Int64):
    lo = None
    hi = None
    for i in range(x.size):
        if x[i] > t:
            if lo is None:
                lo = i
            hi = i
    if hi is not None and hi == x.size - 1:
        return lo, hi, True
    return lo, hi, False


def count_between(x: Int64[:], bounds: tuple[Int64, Int64] | None = None) -> Int64:
    if bounds is None:
        return len(x)
    lo, hi = bounds
    n = 0
    for v in x:
        if lo <= v < hi:
            n += 1
    return n
'''


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    """The source compiled by `postc.compile`, and imported uncompiled."""
    import postc

    path = tmp_path_factory.mktemp("optional") / "optional_source.py"
    path.write_text(SOURCE)
    spec = importlib.util.spec_from_file_location("optional_source", path)
    uncompiled = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(uncompiled)
    return postc.compile(path), uncompiled


A = np.array([2.5, -1.0, 7.25, 0.0])
W = np.array([1.0, 0.5, 2.0, 4.0])
M = np.arange(12).reshape(3, 4)
I = np.array([3, 0, 1, 4, 2, 2, 7])

CALLS = [
    ("scale", (3.0,), {}),
    ("scale", (3.0, None), {}),
    ("scale", (3.0,), {"tol": None}),
    ("scale", (3.0, 4.0), {}),
    ("scale", (3.0,), {"tol": 4}),
    ("scale", (), {"tol": np.float64(0.25), "x": 2.0}),
    ("clip", (5, None), {}),
    ("clip", (5, None, None), {}),
    ("clip", (50, None), {}),
    ("clip", (-5, 0), {"hi": None}),
    ("clip", (-5,), {"lo": np.int32(-2)}),
    ("find", (A, 7.25), {}),
    ("find", (A, 1.0), {}),
    ("find", (A[::2], 7.25), {}),
    ("find", (A[:0], 7.25), {}),
    ("sign", (np.float32(-2.0),), {}),
    ("sign", (np.float32(0.0),), {}),
    ("sign", (np.float32(math.nan),), {}),
    ("weight", (), {}),
    ("weight", (None,), {}),
    ("weight", (np.float32(1.5),), {}),
    ("first_or", (A, 0.0), {}),
    ("first_or", (A, 3.0), {}),
    ("first_or", (A, 3.0), {"default": 7}),
    ("first_or", (A, 3.0, None), {}),
    ("positive", (2.5,), {}),
    ("positive", (-2.5,), {}),
    ("positive", (0.0,), {}),
    ("truthy", (), {}),
    ("truthy", (True, 4), {}),
    ("truthy", (None, 0), {}),
    ("truthy", (False,), {"n": 5}),
    ("mean_of", (A,), {}),
    ("mean_of", (A, None), {}),
    ("mean_of", (A,), {"weights": W}),
    ("mean_of", (A, W[::-1]), {}),
    ("mean_of", (A[:2], W[1:5:2]), {}),
    ("rows_of", (M, None), {}),
    ("rows_of", (M, M > 2), {}),
    ("rows_of", (M.T, (M > 2).T), {}),
    ("count_between", (I,), {}),
    ("count_between", (I, None), {}),
    ("count_between", (I, (1, 4)), {}),
    ("count_between", (I,), {"bounds": (np.int32(0), 2)}),
]


@pytest.mark.parametrize("name,args,kwargs", CALLS)
def test_calls_give_what_cpython_gives(modules, name, args, kwargs):
    compiled, uncompiled = modules
    got = getattr(compiled, name)(*args, **kwargs)
    want = getattr(uncompiled, name)(*args, **kwargs)
    if want is None:
        assert got is None
    else:
        # A number is a NumPy scalar of the result's dtype, as any scalar
        # result is.
        assert isinstance(got, np.generic) and got == want, (got, want)


@pytest.mark.parametrize("x", [np.array([3.0, 1.0, 3.0, 2.0, 1.0, 3.0]), np.array([5.5]), np.zeros(0), np.arange(6.0)[::-2]])
def test_tuple_results_with_elements_that_may_be_none(modules, x):
    compiled, uncompiled = modules
    got, want = compiled.unique_counts(x), uncompiled.unique_counts(x)
    assert type(got) is tuple and len(got) == 2
    if want[0] is None:
        assert got[0] is None
    else:
        assert got[0].dtype == np.float64 and np.array_equal(got[0], want[0])
    assert got[1].dtype == np.int64 and np.array_equal(got[1], want[1])


@pytest.mark.parametrize("x", [[], [1, 2], [3, -1, 4, -5, 0], [-7]])
def test_numbers_that_may_be_none_in_a_tuple_result(modules, x):
    compiled, uncompiled = modules
    a = np.array(x, dtype=np.int64)
    got, want = compiled.first_and_last(a), uncompiled.first_and_last(a)
    assert got == want
    assert [type(g) for g in got] == [type(None) if w is None else np.int64 for w in want]


@pytest.mark.parametrize("x,t", [([], 0), ([1, 2], 5), ([3, -1, 4, -5, 0], 0), ([7], 0), ([0, 9, 0], 1)])
def test_locals_that_may_be_none_in_a_tuple_result(modules, x, t):
    compiled, uncompiled = modules
    a = np.array(x, dtype=np.int64)
    got, want = compiled.above(a, t), uncompiled.above(a, t)
    assert got == want
    assert [type(g) for g in got[:2]] == [type(None) if w is None else np.int64 for w in want[:2]]


def test_elements_that_may_be_none_show_in_the_signature(modules):
    compiled, _ = modules
    assert repr(compiled.unique_counts).endswith("-> (Float64[]Shape[?] | None, Int64[]Shape[?])>")
    assert repr(compiled.first_and_last).endswith("-> (Int64 | None, Int64, Int64 | None)>")
    assert repr(compiled.above).endswith("-> (Int64 | None, Int64 | None, Bool)>")


def test_results_that_may_be_none_have_their_dtype(modules):
    compiled, _ = modules
    assert type(compiled.find(A, 7.25)) is np.int64
    assert type(compiled.sign(np.float32(1.0))) is np.bool_
    assert type(compiled.weight(np.float32(1.0))) is np.float32


def test_a_parameter_that_may_be_none_refuses_other_objects(modules):
    compiled, _ = modules
    with pytest.raises(TypeError, match=r"scale\(\): parameter `tol`: expected None or .*, got str"):
        compiled.scale(1.0, "fast")
    with pytest.raises(TypeError, match=r"missing 1 required positional argument: 'lo'"):
        compiled.clip(1)
    with pytest.raises(OverflowError):
        compiled.clip(1, 2**70)


def test_arrays_and_tuples_that_may_be_none_refuse_other_objects(modules):
    compiled, _ = modules
    with pytest.raises(TypeError, match=r"mean_of\(\): parameter `weights`"):
        compiled.mean_of(A, "heavy")
    with pytest.raises(TypeError, match=r"mean_of\(\): parameter `weights`"):
        compiled.mean_of(A, W.astype(np.int32))
    with pytest.raises(TypeError, match=r"parameter `bounds` takes None or a tuple of 2 numbers, not a tuple of 1"):
        compiled.count_between(I, (1,))
    with pytest.raises(TypeError, match=r"parameter `bounds`: element 1 of the tuple is None"):
        compiled.count_between(I, (1, None))
    # The empty array passed for `None` is the package's, never written.
    assert compiled.mean_of(A) == compiled.mean_of(A, None)


def test_signatures_show_none(modules):
    compiled, uncompiled = modules
    for name in ("scale", "clip", "first_or", "weight", "mean_of", "count_between"):
        got = [(p.name, p.default) for p in inspect.signature(getattr(compiled, name)).parameters.values()]
        want = [(p.name, p.default) for p in inspect.signature(getattr(uncompiled, name)).parameters.values()]
        assert got == want, name
    assert dict(compiled.scale.parameters) == {"x": "Float64", "tol": "Float64 | None"}
    assert dict(compiled.count_between.parameters)["bounds"] == "tuple[Int64, Int64] | None"
    assert dict(compiled.mean_of.parameters)["weights"].endswith(" | None")
    assert repr(compiled.find).endswith("-> Int64 | None>")


def test_jit_functions_take_and_return_none(tmp_path):
    path = tmp_path / "jitted.py"
    path.write_text(
        "import postc\n"
        "from postyp import Int64\n\n\n"
        "@postc.jit\n"
        "def halved(n: Int64, by: Int64 | None = None) -> Int64 | None:\n"
        "    if n % 2 != 0:\n"
        "        return None\n"
        "    if by is None:\n"
        "        by = 2\n"
        "    return n // by\n"
    )
    spec = importlib.util.spec_from_file_location("jitted", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    assert m.halved(7) is None
    assert m.halved(8) == 4
    assert m.halved(8, None) == 4
    assert m.halved(9, by=3) is None
    assert m.halved(12, by=3) == 4


def test_jit_functions_annotated_with_typing_optional(tmp_path):
    # `Optional` imported from `typing` (MNE's style) is bound as an
    # annotation, as `typing.Optional` is.
    path = tmp_path / "optional_import.py"
    path.write_text(
        "from typing import Optional\n"
        "import postc\n"
        "from postyp import Float64\n\n\n"
        "@postc.jit\n"
        "def shifted(x: Float64, by: Optional[Float64] = None) -> Float64:\n"
        "    if by is None:\n"
        "        return x\n"
        "    return x + by\n"
    )
    spec = importlib.util.spec_from_file_location("optional_import", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    assert m.shifted(1.5) == 1.5
    assert m.shifted(1.5, 2.0) == 3.5
