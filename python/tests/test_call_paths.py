"""Every way a call is made gives the same results: through registers
(up to six integer-class and eight floating-point arguments) with the
arguments on the stack, through libffi past those limits, the general path
(keywords, more than four arrays, strided arrays of rank above four,
DLPack objects) and PyO3's tuple call."""
import os

import numpy as np
import pytest

import postc

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="module")
def m():
    return postc.compile(os.path.join(HERE, "call_paths.py"))


def test_integer_registers(m):
    assert m.six_ints(1, 2, 3, 4, 5, 6) == 654321
    assert m.seven_ints(1, 2, 3, 4, 5, 6, 7) == 7654321  # libffi
    assert m.seven_ints(1, 2, 3, 4, 5, 6, g=7) == 7654321
    assert m.seven_ints(-1, 0, 0, 0, 0, 0, 0) == -1


def test_float_registers(m):
    args = (1.0, np.float32(0.5), 0.25, np.float16(2.0), 3.0, -1.0, 0.125, 1.0)
    expected = 1 + 2 * 0.5 + 4 * 0.25 + 8 * 2.0 + 16 * 3.0 - 32.0 + 64 * 0.125 + 128.0
    r = m.eight_floats(*args)
    assert r == expected and type(r) is np.float64
    assert m.nine_floats(*[1.0] * 9) == 511.0  # libffi
    assert m.nine_floats(1, 1, 1, 1, 1, 1, 1, 1, i=2.0) == 767.0


def test_interleaved_classes(m):
    assert m.interleaved(-3, 0.5, 7, 2.0, "abcd") == -3 + 5 + 700 + 2000 + 40000
    assert m.interleaved(a=-3, x=0.5, b=7, y=2.0, s="abcd") == -3 + 5 + 700 + 2000 + 40000


def test_complex_result_past_the_registers(m):
    r = m.complex_past_the_registers(1 + 2j, 1, 1, 1, 1, 1)  # seven integer-class: libffi
    assert r == 5 + 10j and type(r) is np.complex128


def test_more_arrays_than_the_fast_path_holds(m):
    a, b, c, d = (np.full(3, float(k)) for k in (1, 2, 3, 4))
    out = np.zeros(3)
    r = m.five_arrays(a, b, c, d, out)
    assert r is out and out.tolist() == [4321.0] * 3
    out2 = np.zeros(6)[::2]
    assert m.five_arrays(a[::-1], b, c, d, out2) is out2 and out2.tolist() == [4321.0] * 3


def test_strided_arrays_of_high_rank(m):
    base = np.arange(2.0 ** 6).reshape(2, 2, 2, 2, 2, 2)
    view = base[..., 1]  # rank 5, not contiguous
    assert m.corner5(view) == view[0, 0, 0, 0, 0] + view[1, 1, 1, 1, 1]
    assert m.corner5(np.ascontiguousarray(view)) == view[0, 0, 0, 0, 0] + view[1, 1, 1, 1, 1]


def test_panics_and_results_through_libffi(m):
    x = np.arange(3.0)
    assert m.seven_then_get(x, 1, 1, 1, 1, 1, 2) == 7.0
    with pytest.raises(IndexError, match=r"index 3 is out of range for axis 0 with size 3 at .*call_paths.py"):
        m.seven_then_get(x, 1, 1, 1, 1, 1, 3)
    r = m.fresh(4, 1, 1, 1, 1, 1, 1)
    assert r.tolist() == [6.0] * 4 and r.base is not None


def test_the_tuple_call(m):
    """PyO3's `__call__`, which `PyObject_Call` reaches when the caller
    builds a tuple itself."""
    f = m.six_ints
    assert type(f).__call__(f, 1, 2, 3, 4, 5, 6) == 654321
    assert type(f).__call__(f, 1, 2, 3, 4, 5, f=6) == 654321
    with pytest.raises(TypeError, match=r"six_ints\(\) missing 1 required positional argument: 'f'"):
        type(f).__call__(f, 1, 2, 3, 4, 5)
