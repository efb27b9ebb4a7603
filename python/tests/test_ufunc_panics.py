"""A panic in a ufunc's loop, which NumPy runs from C, stops the loop and
raises the exception a function call would, with the located message,
through every NumPy path that runs the loop (a call, out= and where=,
casting, .reduce, .accumulate, .reduceat, .outer, .at, arrays large
enough for NumPy to release the GIL); the first panic is the one raised,
the interpreter survives and the next call works. A C caller of NAME_loop
keeps the documented abort."""
import concurrent.futures
import ctypes
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import postc

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "ufunc_panics.py")


def at(line, col):
    return rf" at {SOURCE}:{line}:{col}$"


DIVISION = r"^division by zero" + at(8, 12)


@postc.ufunc(["i8(i8, i8)", "i4(i4, i4)"])
def floor_div(a, b):
    return a // b


FLOOR_DIV_LINE = floor_div.py_func.__code__.co_firstlineno + 2  # the decorator, `def`, `return`


@pytest.fixture(scope="module")
def m():
    return postc.compile(SOURCE)


@pytest.fixture(scope="module")
def m0():
    return postc.compile(SOURCE, opt=0)


def test_division_by_zero(m):
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv(np.array([7, 9]), 0)
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv(7, 0)  # NumPy's scalar path
    assert m.idiv(np.array([7, 9]), 2).tolist() == [3, 4]


@pytest.mark.parametrize("n", [3, 100_000], ids=["small", "large"])
def test_every_path_of_a_call(m, n):
    """Small arrays run with the GIL held, large ones with it released by
    NumPy; strided, broadcast and cast operands go through NumPy's
    iterator; out= and where= through its masked loop."""
    a = np.arange(1, n + 1, dtype=np.int64)
    b = np.ones(n, dtype=np.int64)
    b[n // 2] = 0
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv(a, b)
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv(a[::-1], b)
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv(a.astype(np.int32), b)  # cast in buffers
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv(a.reshape(1, -1)[:, :300], b.reshape(-1, 1)[n // 2 - 1 : n // 2 + 2])  # broadcast
    out = np.full(n, -1, dtype=np.int64)
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv(a, b, out=out)
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv(a, b, out=out, where=a > 0)
    # A mask that skips the zero divisor runs through.
    r = m.idiv(a, b, out=np.zeros(n, np.int64), where=b != 0)
    assert r[n // 2] == 0 and r[0] == 1
    assert m.idiv(a, np.ones(n, np.int64)).tolist() == a.tolist()


def test_the_operation_stops_at_the_first_panic(m):
    """NumPy runs the loop once per buffer of cast operands: after a panic
    in the first buffer, the others are not run (their outputs keep what
    they held)."""
    n = 100_000
    a = np.arange(1, n + 1, dtype=np.int32)
    b = np.ones(n, dtype=np.int64)
    b[10] = b[50_000] = 0
    out = np.full(n, -1, dtype=np.int64)
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv(a, b, out=out)
    assert (out[20_000:] == -1).all()
    m.idiv(a, np.ones(n, np.int64), out=out)
    assert (out == np.arange(1, n + 1)).all()


def test_ufunc_methods(m):
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv.reduce(np.array([100, 5, 0, 2]))
    assert m.idiv.reduce(np.array([100, 5, 2])) == 10
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv.reduce(np.array([[100, 5], [4, 0]]), axis=1)
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv.accumulate(np.array([100, 5, 0, 2]))
    assert m.idiv.accumulate(np.array([100, 5, 2])).tolist() == [100, 20, 10]
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv.reduceat(np.array([100, 0, 8, 2]), [0, 2])
    assert m.idiv.reduceat(np.array([100, 5, 8, 2]), [0, 2]).tolist() == [20, 4]
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv.outer(np.array([1, 2]), np.array([1, 0, 3]))
    assert m.idiv.outer(np.array([6, 8]), np.array([2, 3])).tolist() == [[3, 2], [4, 2]]
    a = np.array([10, 20, 30])
    with pytest.raises(ZeroDivisionError, match=DIVISION):
        m.idiv.at(a, [0, 2], 0)
    m.idiv.at(a, [0, 2], 10)
    assert a.tolist() == [1, 20, 3]


def test_index_out_of_bounds_in_a_gufunc(m):
    x = np.arange(12.0).reshape(4, 3)
    assert m.pick(x, np.array([0, 1, 2, -1])).tolist() == [0, 4, 8, 11]
    # The first panic is the one raised: index 7 of row 1, not 9 of row 3.
    with pytest.raises(IndexError, match=r"^index out of bounds: index 7 is out of range for axis 0 with size 3"
                       + at(13, 12)):
        m.pick(x, np.array([0, 7, 1, 9]))
    big = np.zeros((30_000, 3))
    idx = np.zeros(30_000, dtype=np.int32)
    idx[10], idx[20_000], idx[29_999] = 7, 9, 8
    with pytest.raises(IndexError, match=r"^index out of bounds: index 7 is out of range"):
        m.pick(big, idx)
    with pytest.raises(IndexError, match=r"index 5 is out of range"):
        m.pick(x.T.copy()[:3].T, 5)  # a strided core operand
    assert m.pick(x, 1).tolist() == [1, 4, 7, 10]


def test_assertion(m):
    with pytest.raises(AssertionError, match=r"^assertion failed: x must be positive" + at(18, 5)):
        m.positive(np.array([3, 2, 0, 1]))
    assert m.positive(np.array([3, 2])).tolist() == [3, 2]


def test_overflow_at_o0(m, m0):
    with pytest.raises(OverflowError, match=r"^integer overflow" + at(24, 12)):
        m0.square(np.array([3, 2**32]))
    assert m0.square(np.array([3])).tolist() == [9]
    assert m.square(np.array([2**32])).tolist() == [0]  # wraps from -O1


def test_a_zero_range_step_is_a_value_error(m):
    with pytest.raises(ValueError, match=r"^range\(\) arg 3 must not be zero" + at(30, 14)):
        m.count(10, np.array([3, 0]))
    assert m.count(10, np.array([3, 5])).tolist() == [4, 2]


def test_the_exception_is_not_lost_to_floating_point_checks(m):
    """1/0 sets the divide flag before the assertion panics: the loop clears
    it, so NumPy's floating-point check (even set to raise) does not replace
    the panic's exception, in the direct and in the buffered path."""
    x = np.array([2.0, 0.0, 4.0])
    with np.errstate(all="raise"):
        with pytest.raises(AssertionError, match=r"the inverse must be finite" + at(38, 5)):
            m.finite_inverse(x)
        with pytest.raises(AssertionError, match=r"the inverse must be finite"):
            m.finite_inverse(x.astype(np.float32))
        with pytest.raises(AssertionError, match=r"the inverse must be finite"):
            m.finite_inverse(np.tile(x, 1000)[::-1])
    assert m.finite_inverse(np.array([2.0, 4.0])).tolist() == [0.5, 0.25]


def test_a_new_call_inside_the_except_block_runs(m):
    try:
        m.idiv(np.array([1, 2]), 0)
    except ZeroDivisionError:
        assert m.idiv(np.array([8, 6]), 2).tolist() == [4, 3]
    else:
        pytest.fail("no exception")


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_the_arena_is_released_after_a_panic(m):
    n = 1 << 17  # 1 MiB of scratch per iteration
    x = np.arange(float(n))
    assert m.scratch_then_pick(x, n - 1)[0] == n - 1
    before = rss_bytes()
    for _ in range(1000):
        with pytest.raises(IndexError, match=at(49, 18)):
            m.scratch_then_pick(x, n)
    # 1000 unreleased scratch arrays would be 1 GiB.
    assert rss_bytes() - before < 256 << 20
    assert m.scratch_then_pick(x[:4], 2).tolist() == [2.0] * 4


def test_panics_on_several_threads(m):
    def work(k):
        b = np.ones(50_000, dtype=np.int64)
        if k % 2:
            b[k] = 0
        try:
            return int(m.idiv(np.full(50_000, k, dtype=np.int64), b).sum())
        except ZeroDivisionError as e:
            return str(e)

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(work, range(200)))
    for k, r in enumerate(results):
        if k % 2:
            assert r.startswith("division by zero at ") and r.endswith("ufunc_panics.py:8:12"), r
        else:
            assert r == 50_000 * k


def test_a_c_caller_of_the_loop_keeps_the_abort(m, tmp_path):
    """`idiv_loop` called directly (ctypes), with no handler set: the panic
    is reported on standard error and the process aborts, as docs/abi.md
    says."""
    code = f"""
import ctypes, numpy as np
lib = ctypes.CDLL({m.library!r})
loop = lib.idiv_loop
loop.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_ssize_t),
                 ctypes.POINTER(ctypes.c_ssize_t), ctypes.c_void_p]
a, b, out = np.array([7, 9]), np.array([2, 0]), np.zeros(2, np.int64)
args = (ctypes.c_void_p * 3)(a.ctypes.data, b.ctypes.data, out.ctypes.data)
steps = (ctypes.c_ssize_t * 3)(8, 8, 8)
loop(args, (ctypes.c_ssize_t * 1)(1), steps, None)
print(out[0], flush=True)
loop(args, (ctypes.c_ssize_t * 1)(2), steps, None)
print("survived")
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.stdout == "3\n"
    assert r.returncode == -6, r.stderr  # SIGABRT
    assert "panic: division by zero at " in r.stderr and "ufunc_panics.py:8:12" in r.stderr


def test_the_interpreter_survives_in_a_fresh_process(tmp_path):
    """The whole story in a new interpreter, which exits normally."""
    code = (f"import postc, numpy as np\nm = postc.compile({SOURCE!r})\n"
            "try:\n    m.idiv(np.array([7]), 0)\nexcept ZeroDivisionError as e:\n    print('raised', e)\n"
            "print(m.idiv(np.array([7, 9]), 2).tolist())\n")
    env = dict(os.environ, POSTC_CACHE_DIR=str(tmp_path))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("raised division by zero at ") and r.stdout.endswith("ufunc_panics.py:8:12\n[3, 4]\n")


def test_each_loop_of_a_ufunc_of_several_signatures_raises():
    """`@postc.ufunc([...])`: one NumPy loop per dtype signature, each
    raising its panics."""
    where = rf"^division by zero at {re.escape(__file__)}:{FLOOR_DIV_LINE}:12$"
    for dtype in (np.int64, np.int32):
        a = np.array([7, 9], dtype=dtype)
        with pytest.raises(ZeroDivisionError, match=where):
            floor_div(a, np.array([2, 0], dtype=dtype))
        r = floor_div(a, np.array([2, 3], dtype=dtype))
        assert r.dtype == dtype and r.tolist() == [3, 3]
    with pytest.raises(ZeroDivisionError, match=where):
        floor_div.reduce(np.array([100, 0, 2], dtype=np.int32))
