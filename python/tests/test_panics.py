"""A panic in compiled code raises the Python exception of its kind with
the located message; the interpreter survives, the arena is released and
the next call works."""
import concurrent.futures
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

import postc

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "kernels.py")


def at(line, col):
    return rf" at {KERNELS}:{line}:{col}$"


def test_index_out_of_bounds(kernels):
    x = np.arange(3.0)
    with pytest.raises(IndexError, match=r"^index out of bounds: index 5 is out of range for axis 0 with size 3" + at(101, 12)):
        kernels.get(x, 5)
    with pytest.raises(IndexError, match=r"index -1 is out of range for axis 0 with size 3"):
        kernels.get(x, -4)
    assert kernels.get(x, -1) == 2.0


def test_division_and_modulo_by_zero(kernels):
    with pytest.raises(ZeroDivisionError, match=r"^division by zero" + at(105, 12)):
        kernels.floordiv(7, 0)
    with pytest.raises(ZeroDivisionError, match=r"^modulo by zero" + at(109, 12)):
        kernels.mod(7, 0)
    assert kernels.floordiv(-7, 2) == -4 and kernels.mod(-7, 2) == 1


def test_raise_of_a_builtin_exception(kernels):
    with pytest.raises(ValueError, match=r"^only defined for 2 dimensional data" + at(179, 9)):
        kernels.only_two(3)
    with pytest.raises(NotImplementedError, match=r"^" + at(177, 9)[1:]):
        kernels.only_two(0)
    assert kernels.only_two(2) == 2


def test_unbound_local_raises_as_cpython(kernels):
    message = r"^cannot access local variable 'i' where it is not associated with a value"
    with pytest.raises(UnboundLocalError, match=message + at(194, 12)):
        kernels.last_index(0)
    assert kernels.last_index(3) == 2


def test_linalg_error_is_numpys(kernels):
    with pytest.raises(np.linalg.LinAlgError, match=r"^Last 2 dimensions of the array must be square" + at(187, 12)):
        kernels.determinant(np.ones((2, 3)))
    assert kernels.determinant(np.array([[4.0, 3.0], [6.0, 3.0]])) == pytest.approx(-6.0)


def test_overflow_at_o0(kernels, kernels_o0):
    with pytest.raises(OverflowError, match=r"^integer overflow" + at(113, 12)):
        kernels_o0.square(2**32)
    assert kernels_o0.square(3) == 9
    assert kernels.square(2**32) == 0  # wraps from -O1


def test_failed_assert(kernels):
    with pytest.raises(AssertionError, match=r"^assertion failed: n must be positive" + at(117, 5)):
        kernels.checked(0)
    assert kernels.checked(4) == 4


def test_zero_range_step_is_a_value_error(kernels):
    with pytest.raises(ValueError, match=r"^range\(\) arg 3 must not be zero" + at(123, 14)):
        kernels.steps(10, 0)
    assert kernels.steps(10, 3) == 4


OPERAND_KINDS = os.path.join(HERE, "..", "..", "tests", "py", "operand_kinds.py")


@pytest.fixture(scope="module")
def operand_kinds(cache_dir):
    return postc.compile(OPERAND_KINDS)


def test_python_numbers_raise_as_cpython(operand_kinds):
    """Python floats and ints (`float(x)`, `int(x)`) raise CPython's
    exceptions with CPython's messages; the same operations on NumPy
    scalars give NumPy's results."""
    m = operand_kinds
    spec = importlib.util.spec_from_file_location("operand_kinds_under_cpython", OPERAND_KINDS)
    cpython = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cpython)
    for name, message in [
        ("py_div", "float division by zero"),
        ("py_floordiv", "float floor division by zero"),
        ("py_mod", "float modulo"),
        ("py_int_truediv", "division by zero"),
        ("py_complex_div", "complex division by zero"),
    ]:
        with pytest.raises(ZeroDivisionError, match="^" + message + " at "):
            m[name](1, 0)
        with pytest.raises(ZeroDivisionError, match="^" + message + "$"):
            getattr(cpython, name)(1, 0)
    with pytest.raises(ZeroDivisionError, match="^0.0 cannot be raised to a negative power at "):
        m.py_pow(0, -1)
    with pytest.raises(ValueError, match="^negative shift count at "):
        m.py_shl(7, -1)
    assert m.py_shl(-5, 2) == -20


def test_numpy_scalars_follow_numpy(operand_kinds):
    m = operand_kinds
    with np.errstate(all="ignore"):
        for x, y in [(1.0, 0.0), (-1.0, 0.0), (0.0, 0.0)]:
            want = np.float64(x) / np.float64(y)
            got = m.np_div(x, y)
            assert (np.isnan(want) and np.isnan(got)) or got == want
        for a, k in [(7, -1), (-7, -1), (7, 40), (1, 31)]:
            assert m.np_shl32(a, k) == np.int32(a) << np.int32(k)
        for a, k in [(-8, -1), (8, -1), (-8, 64), (-8, 2)]:
            assert m.np_shr64(a, k) == np.int64(a) >> np.int64(k)


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_the_arena_is_released_after_a_panic(kernels):
    n = 1 << 17  # 1 MiB of scratch per call
    assert kernels.scratch_then_get(n, n - 1) == n - 1
    before = rss_bytes()
    for _ in range(1000):
        with pytest.raises(IndexError):
            kernels.scratch_then_get(n, n)
    # 1000 unreleased scratch arrays would be 1 GiB.
    assert rss_bytes() - before < 256 << 20
    assert kernels.scratch_then_get(10, 3) == 3


def test_panics_on_several_threads(kernels):
    x = np.arange(4.0)

    def work(i):
        try:
            return kernels.get(x, i)
        except IndexError as e:
            return str(e)

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(work, [k % 8 for k in range(400)]))
    for k, r in enumerate(results):
        i = k % 8
        if i < 4:
            assert r == i
        else:
            assert r.startswith(f"index out of bounds: index {i} is out of range")


def test_panics_deep_in_recursion_leave_no_depth_behind():
    """Each panic below 100 nested calls leaves them all; the 10,000-call
    limit of the next calls is not used up by the ones left."""
    m = postc.compile(os.path.join(HERE, "recursion.py"))
    for _ in range(300):
        with pytest.raises(ZeroDivisionError, match=r"division by zero at .*recursion.py:7:16$"):
            m.down(100, 0)
    assert m.down(100, 1) == 101
    assert m.down(9000, 1) == 9001
    with pytest.raises(RuntimeError, match=r"^recursion limit exceeded at .*recursion.py:8:12$"):
        m.down(20000, 1)
    assert m.down(3, 1) == 4
