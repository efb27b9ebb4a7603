"""`prange` loops through the package: reductions give the same bits on 1,
2 and 7 threads and agree with CPython, calls from many Python threads at
once are right, a panic in a chunk raises the serial loop's exception, and
`set_num_threads` reaches every compiled module."""
import json
import math
import os
import subprocess
import sys

import pytest

import postc

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "prange_kernels.py")
N = 1_000_000


def cpython():
    """The kernels run by CPython: `prange` is `range`."""
    scope = {}
    with open(KERNELS) as f:
        exec(compile(f.read(), KERNELS, "exec"), scope)
    return scope


@pytest.fixture(scope="module")
def runs(cache_dir):
    env = dict(os.environ, POSTC_NUM_THREADS="8")
    p = subprocess.run([sys.executable, os.path.join(HERE, "prange_runner.py")], env=env,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_the_setting_reaches_each_runtime(runs):
    assert runs["default"] == 8
    for t, r in runs["runs"].items():
        assert r["get"] == int(t) and r["runtime"] == int(t)
    assert runs["later"] == {"runtime": 3, "earlier": 3, "value": 499500}


@pytest.mark.parametrize("name", ["harmonic", "growth", "spread"])
def test_float_reductions_have_the_same_bits_on_any_thread_count(runs, name):
    bits = {t: r[name] for t, r in runs["runs"].items()}
    assert set(bits) == {"1", "2", "7"}
    assert len(set(bits.values())) == 1, bits
    serial = cpython()[name](N)
    assert math.isclose(float.fromhex(bits["1"]), serial, rel_tol=1e-12, abs_tol=0.0)


def test_every_backend_and_level_runs_the_same_chunks(runs):
    """Through the LLVM, C and QBE backends at -O0 and -O2 (each library
    its own copy of the runtime and pool) the reductions have the same bits
    on every thread count, and a panic names the same iteration."""
    for t, r in runs["runs"].items():
        assert set(r["builds"]) == {f"{b}-O{o}" for b in ("llvm", "c", "qbe") for o in (0, 2)}
        for name, b in r["builds"].items():
            want = {k: r[k] for k in ("harmonic", "growth", "spread", "mixed", "panic")}
            assert b == dict(want, runtime=int(t)), (t, name)


def test_the_harmonic_sum_rounds_differently_from_cpython(runs):
    """The check above compares bits that differ from the serial loop's:
    with equal bits it could not tell chunked from serial combining."""
    assert float.fromhex(runs["runs"]["1"]["harmonic"]) != cpython()["harmonic"](N)


def test_an_integer_reduction_equals_cpython(runs):
    expected = cpython()["mixed"](N)
    assert {t: r["mixed"] for t, r in runs["runs"].items()} == {"1": expected, "2": expected, "7": expected}


def test_eight_python_threads_at_once(runs):
    for r in runs["runs"].values():
        assert r["concurrent"] == [r["harmonic"]] * 8


def test_a_panic_part_way_raises_the_first_failing_iteration(runs):
    """Iterations 700 to 999 index past the end, in many chunks: the error
    names iteration 700, as the serial loop does, and the next call works."""
    for r in runs["runs"].values():
        assert r["panic"] == {
            "error": "IndexError",
            "message": f"index out of bounds: index 700 is out of range for axis 0 with size 700 at {KERNELS}:42:14",
        }
        assert r["after_panic"] == {"value": 700 * 699 / 2}


def test_set_num_threads_checks_its_argument():
    limit = postc._MAX_THREADS
    before = postc.get_num_threads()
    for bad in (0, -1, limit + 1):
        with pytest.raises(ValueError, match=f"between 1 and {limit}"):
            postc.set_num_threads(bad)
    for bad in (1.0, "2", True):
        with pytest.raises(TypeError):
            postc.set_num_threads(bad)
    assert postc.get_num_threads() == before


def test_set_num_threads_in_process(kernels):
    """The value reaches a module loaded before the call; 1 thread gives the
    same bits as the default count."""
    m = postc.compile(KERNELS)
    before = postc.get_num_threads()
    assert before == postc._MAX_THREADS
    default_bits = m.harmonic(N).hex()
    try:
        postc.set_num_threads(1)
        assert postc.get_num_threads() == 1
        import ctypes
        assert ctypes.CDLL(m.library).postc_rt_get_num_threads() == 1
        assert m.harmonic(N).hex() == default_bits
    finally:
        postc.set_num_threads(before)


def test_without_the_extension_the_value_is_stored():
    code = ("import sys; sys.modules['postc._native'] = None\n"
            "import postc\n"
            "assert postc._native is None\n"
            "postc.set_num_threads(1)\n"
            "print(postc.get_num_threads(), postc.compile(sys.argv[1]).harmonic(1000))\n")
    env = dict(os.environ, POSTC_NUM_THREADS="4")
    p = subprocess.run([sys.executable, "-c", code, KERNELS], env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    count, value = p.stdout.split()
    assert count == "1" and float(value) == cpython()["harmonic"](1000)


def test_other_chunks_stop_at_their_next_block(cache_dir):
    """Iteration 10 raises while the other thread is inside a chunk of 400
    slow iterations: it stops at the end of its block of at most 64
    iterations instead of finishing the chunk (a chunk finished would mark
    at least 400), and the loop raises the serial exception. The
    iterations before the failing one in its own chunk all ran, as in the
    serial loop."""
    import numpy as np

    m = postc.compile(KERNELS)
    before = postc.get_num_threads()
    try:
        postc.set_num_threads(2)
        done = np.zeros(128 * 400)
        with pytest.raises(ValueError, match="stopped"):
            m.stops_early(done, 10, 200_000)
    finally:
        postc.set_num_threads(before)
    assert (done[:10] > 0).all()
    ran = int((done > 0).sum())
    assert 10 <= ran < 200, ran
