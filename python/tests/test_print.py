"""`print` in compiled code through the package: lines reach `sys.stdout`
(what pytest's capture and `contextlib.redirect_stdout` replace), as
CPython writes them, in order, also from `prange` workers and from calls
made while other Python threads run."""
import contextlib
import io
import threading

import numpy as np

import postc

SOURCE = '''\
from postyp import Bool, Float32, Float64, Int64
from postc import prange, ufunc


def report(n: Int64, x: Float64, y: Float32, flag: Bool) -> Int64:
    for k in range(n):
        print("step", k, x / (k + 1), y * 2, flag, sep="|")
    print("done", end="!\\n")
    return n


def parallel(n: Int64) -> Int64:
    total = 0
    for i in prange(n):
        print("iteration", i)
        total += i
    return total


def then_fails(a: Float64[:], i: Int64) -> Float64:
    print("reading", i)
    return a[i]


@ufunc
def noisy(x: Float64) -> Float64:
    print("element", x)
    return 2.0 * x
'''


def cpython_output(fn, *args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn(*args)
    return out.getvalue()


def test_lines_are_what_cpython_prints(tmp_path, capsys):
    path = tmp_path / "printing_kernels.py"
    path.write_text(SOURCE)
    m = postc.compile(str(path))
    scope = {}
    exec(compile(SOURCE.replace("from postc import prange, ufunc", "prange = range\nufunc = lambda f: f"), str(path),
                 "exec"), scope)
    args = (4, 0.1, np.float32(0.1), np.bool_(True))
    assert m.report(*args) == 4
    got = capsys.readouterr().out
    assert got == cpython_output(scope["report"], *args)
    assert got.startswith("step|0|0.1|0.2|True\nstep|1|0.05|0.2|True\n")


def test_redirect_stdout_sees_them(tmp_path):
    path = tmp_path / "printing_kernels.py"
    path.write_text(SOURCE)
    m = postc.compile(str(path))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        m.report(1, 2.5, np.float32(1e6), np.bool_(False))
    assert out.getvalue() == "step|0|2.5|2e+06|False\ndone!\n"


def test_prange_workers_print_every_line_whole(tmp_path, capsys):
    path = tmp_path / "printing_kernels.py"
    path.write_text(SOURCE)
    m = postc.compile(str(path))
    before = postc.get_num_threads()
    postc.set_num_threads(postc._MAX_THREADS)
    try:
        assert m.parallel(200) == sum(range(200))
    finally:
        postc.set_num_threads(before)
    lines = capsys.readouterr().out.splitlines()
    assert sorted(lines) == sorted(f"iteration {i}" for i in range(200))


def test_a_call_while_other_threads_run_writes_its_lines_when_it_returns(tmp_path, capsys):
    path = tmp_path / "printing_kernels.py"
    path.write_text(SOURCE)
    m = postc.compile(str(path))
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        m.report(2, 1.0, np.float32(3.0), np.bool_(True))
    finally:
        stop.set()
        other.join()
    assert capsys.readouterr().out == "step|0|1.0|6.0|True\nstep|1|0.5|6.0|True\ndone!\n"


def test_lines_before_a_panic_are_written(tmp_path, capsys):
    path = tmp_path / "printing_kernels.py"
    path.write_text(SOURCE)
    m = postc.compile(str(path))
    try:
        m.then_fails(np.zeros(3), 5)
    except IndexError:
        pass
    else:
        raise AssertionError("no IndexError")
    assert capsys.readouterr().out == "reading 5\n"


def test_a_ufuncs_lines_are_written_when_its_loop_ends(tmp_path, capsys):
    path = tmp_path / "printing_kernels.py"
    path.write_text(SOURCE)
    m = postc.compile(str(path))
    np.testing.assert_array_equal(m.noisy(np.array([1.0, 2.5, -0.0])), [2.0, 5.0, -0.0])
    assert capsys.readouterr().out == "element 1.0\nelement 2.5\nelement -0.0\n"
