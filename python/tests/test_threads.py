"""Compiled calls release the GIL: Python runs on other threads while a
call runs, two threads run two calls at once, and a panic raises on the
thread that made the call."""
import os
import threading
import time

import pytest

import postc

HERE = os.path.dirname(os.path.abspath(__file__))
N = 100_000_000  # about 0.4 s per call on the machine this was written on


@pytest.fixture(scope="module")
def m():
    return postc.compile(os.path.join(HERE, "long_calls.py"))


def churn_reference(n, seed):
    x = seed
    for _ in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
        x ^= x >> 29
    return x


def test_the_kernel_is_right(m):
    assert m.churn(1000, 7) == churn_reference(1000, 7)


def test_python_runs_while_a_call_runs(m):
    """Another thread's Python loop makes progress during the call: with the
    GIL held by the call it could not run at all until the call returned."""
    span = {}

    def call():
        span["start"] = time.perf_counter()
        span["result"] = m.churn(N, 3)
        span["end"] = time.perf_counter()

    t = threading.Thread(target=call)
    ticks = []
    t.start()
    while t.is_alive():
        ticks.append(time.perf_counter())
    t.join()
    start, end = span["start"], span["end"]
    lo, hi = start + 0.1 * (end - start), end - 0.1 * (end - start)
    during = sum(lo < x < hi for x in ticks)
    assert during > 10, f"{during} ticks of the Python loop in the middle of a {end - start:.3f} s call"
    assert span["result"] == m.churn(N, 3)


def test_two_threads_run_two_calls_at_once(m, capsys):
    t0 = time.perf_counter()
    alone = [m.churn(N, 1), m.churn(N, 2)]
    sequential = time.perf_counter() - t0
    results = [None, None]

    def call(i):
        results[i] = m.churn(N, i + 1)

    threads = [threading.Thread(target=call, args=(i,)) for i in range(2)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    concurrent = time.perf_counter() - t0
    assert results == alone
    with capsys.disabled():
        print(f"\n[GIL] two calls of {sequential / 2:.3f} s each: {sequential:.3f} s one after the other, "
              f"{concurrent:.3f} s on two threads (ratio {concurrent / sequential:.2f}; "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f})")


def test_a_panic_raises_on_the_calling_thread(m):
    """Threads whose calls panic get the exception; the others their
    results; all running at once."""
    good = m.churn(N // 10, 5)
    outcomes = {}

    def call(i):
        try:
            bad = good if i % 2 else 0
            outcomes[i] = ("value", m.churn_then_check(N // 10, 5, bad))
        except AssertionError as e:
            outcomes[i] = ("raised", str(e), threading.current_thread().name)

    threads = [threading.Thread(target=call, args=(i,), name=f"caller {i}") for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(6):
        if i % 2:
            kind, message, thread = outcomes[i]
            assert kind == "raised" and message.startswith("assertion failed: reached the bad value at ")
            assert thread == f"caller {i}"
        else:
            assert outcomes[i] == ("value", good)
    assert m.churn_then_check(10, 5, 0) == m.churn(10, 5)
