"""Global NumPy arrays read by `@jit` functions: frozen, as Numba freezes
them, into module-level `np.array([...])` constants of the cut."""
import textwrap

import numpy as np
import pytest

import postc
from test_jit import define_cell


def test_global_arrays_of_several_dtypes_are_read_as_constants():
    ns = {}
    text = textwrap.dedent('''\
        import numpy as np
        import postc
        from postyp import Bool, Float64, Int64

        L0 = np.array([[175347046.0, 0.0, 0.0], [3341656.0, 4.6692568, 6283.07585],
                       [34894.0, 4.6261, 12566.1517]])
        COUNTS = np.arange(24, dtype=np.int32).reshape(2, 3, 4)[:, ::-1, :]
        SMALL = np.array([0.1, 1.0 / 3.0, 65504.0], dtype=np.float16)
        FLAGS = np.array([True, False, True])
        EDGES = np.array([-np.inf, 0.0, np.inf, np.nan])
        BIG = np.array([2**64 - 1, 2**63], dtype=np.uint64)

        def terms(arr: Float64[:, :], x: Float64) -> Float64:
            s = 0.0
            for row in range(arr.shape[0]):
                s += arr[row, 0] * np.cos(arr[row, 1] + arr[row, 2] * x)
            return s

        @postc.jit
        def periodic(x: Float64) -> Float64:
            return terms(L0, x) + L0[:, 0].sum()

        @postc.jit
        def count(i: Int64, j: Int64, k: Int64) -> Int64:
            return Int64(COUNTS[i, j, k]) + Int64(COUNTS.sum())

        @postc.jit
        def small(i: Int64) -> Float64:
            return Float64(SMALL[i])

        @postc.jit
        def flag(i: Int64) -> Bool:
            return FLAGS[i]

        @postc.jit
        def edge(i: Int64) -> Float64:
            return EDGES[i]

        @postc.jit
        def big(i: Int64) -> Bool:
            return BIG[i] == BIG[i]
    ''')
    define_cell(21, text, ns)
    for x in (0.0, 0.5, -2.0):
        assert ns["periodic"](x) == pytest.approx(ns["periodic"].py_func(x), rel=1e-14)
    for ijk in ((0, 0, 0), (1, 2, 3), (0, 1, 2)):
        assert ns["count"](*ijk) == ns["count"].py_func(*ijk)
    for i in range(3):
        assert ns["small"](i) == ns["small"].py_func(i)
        assert ns["flag"](i) == ns["flag"].py_func(i)
    assert ns["edge"](0) == -np.inf and ns["edge"](2) == np.inf and np.isnan(ns["edge"](3))
    assert ns["big"](0)


def test_global_arrays_compiled_code_cannot_hold_are_refused():
    ns = {}
    text = textwrap.dedent('''\
        import numpy as np
        import postc
        from postyp import Float64

        OBJECTS = np.array([1.0, "a"], dtype=object)
        SCALAR = np.array(2.0)
        WORDS = np.array(["a", "b"])

        @postc.jit
        def objects(x: Float64) -> Float64:
            return x * OBJECTS.shape[0]

        @postc.jit
        def scalar(x: Float64) -> Float64:
            return x * SCALAR

        @postc.jit
        def words(x: Float64) -> Float64:
            return x * WORDS.shape[0]
    ''')
    define_cell(22, text, ns)
    with pytest.raises(postc.CompileError, match="`OBJECTS` is a global NumPy array of dtype object"):
        ns["objects"](1.0)
    with pytest.raises(postc.CompileError, match=r"`SCALAR` is a global NumPy array with no axes \(0-d\)"):
        ns["scalar"](1.0)
    with pytest.raises(postc.CompileError, match="`WORDS` is a global NumPy array of dtype <U1"):
        ns["words"](1.0)


def test_a_global_array_is_read_only_in_compiled_code():
    ns = {}
    text = textwrap.dedent('''\
        import numpy as np
        import postc
        from postyp import Float64

        TABLE = np.array([1.0, 2.0])

        @postc.jit
        def write(x: Float64) -> Float64:
            TABLE[0] = x
            return TABLE[0]
    ''')
    define_cell(23, text, ns)
    with pytest.raises(postc.CompileError, match="`TABLE` is a module-level array and cannot be written"):
        ns["write"](1.0)
