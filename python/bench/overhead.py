"""Call overhead and compile time of the postc package, beside Numba's
`njit` and `vectorize` of the same source in the same run when Numba is
installed (docs/performance.md quotes this script's output).

    python python/bench/overhead.py [--number N]

Each per-call figure is the median of 7 `timeit` runs; postc's and
Numba's runs of a case alternate, so that both see the same machine. The
calls are timed in two fresh processes whose compiles hit the cache: one
with a single Python thread, one with another (idle) Python thread, as a
notebook kernel has, where postc releases the GIL for each call."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
import timeit

import numpy as np
from postyp import Float64, Out

import postc

SOURCE = textwrap.dedent('''\
    from postyp import Float64, Out
    from postc import ufunc

    def inc(x: Float64) -> Float64:
        return x + 1.0

    def add(a: Float64, b: Float64) -> Float64:
        return a + b

    def first(x: Float64[:]) -> Float64:
        return x[0]

    def copy1(x: Float64[:], y: Out[Float64[:]]) -> None:
        y[0] = x[0]

    @ufunc
    def axpy(a: Float64, x: Float64, y: Float64) -> Float64:
        return a * x + y
''')


# The same kernels as `@postc.jit` functions of this file: calls through
# the package's dispatcher.
@postc.jit
def jit_inc(x: Float64) -> Float64:
    return x + 1.0


@postc.jit
def jit_first(x: Float64[:]) -> Float64:
    return x[0]


@postc.jit
def jit_copy1(x: Float64[:], y: Out[Float64[:]]) -> None:
    y[0] = x[0]


def numba_kernels():
    """The same kernels with Numba, or None without it."""
    try:
        import numba
    except ImportError:
        return None

    @numba.njit
    def inc(x):
        return x + 1.0

    @numba.njit
    def add(a, b):
        return a + b

    @numba.njit
    def first(x):
        return x[0]

    @numba.njit
    def copy1(x, y):
        y[0] = x[0]

    @numba.vectorize(["float64(float64, float64, float64)"])
    def axpy(a, x, y):
        return a * x + y

    return {"inc": inc, "add": add, "first": first, "copy1": copy1, "axpy": axpy, "version": numba.__version__}


def per_call_ns(stmt, names, number):
    """Nanoseconds per run of `stmt` (with `names` as its globals), over one
    `timeit` run of `number`."""
    return timeit.timeit(stmt, number=number, globals=names) / number * 1e9


# Each case is a statement timed with `timeit` (its loop adds a few
# nanoseconds to every column alike): what it shows, the function, the
# statement.
CASES = [
    ("`inc(1.0)`, one Python float -> Float64", "inc", "f(1.0)"),
    ("`add(1.0, 2.0)`, two Python floats", "add", "f(1.0, 2.0)"),
    ("`first(x)`, a 1-element Float64 array -> Float64", "first", "f(x1)"),
    ("`copy1(x, y)`, 1-element input and `Out` arrays", "copy1", "f(x1, y1)"),
    ("`@postc.jit` `inc(1.0)`", "jit_inc", "f(1.0)"),
    ("`@postc.jit` `first(x)`", "jit_first", "f(x1)"),
    ("`@postc.jit` `copy1(x, y)`", "jit_copy1", "f(x1, y1)"),
    ("ufunc `axpy(2.0, x, x)`, 8 elements", "axpy", "f(2.0, x8, x8)"),
    ("ufunc `axpy(2.0, x, x)`, 64 elements", "axpy", "f(2.0, x64, x64)"),
]


def calls(src, number, threaded):
    """The per-call figures of every case (postc, Numba: nanoseconds, the
    median of 7 runs, the two alternating), in a process whose compiles all
    hit the cache (so that it has no thread of postc's own); `threaded`
    starts an idle Python thread first, as a notebook kernel or a thread
    pool has: postc then hands the GIL over for each call."""
    if threaded:
        import threading

        threading.Thread(target=threading.Event().wait, daemon=True).start()
    m = postc.compile(src)
    assert m.cached
    nb = numba_kernels()
    x1, y1 = np.ones(1), np.zeros(1)
    data = {"x1": x1, "y1": y1, "x8": np.arange(8.0), "x64": np.arange(64.0)}
    ours = {name: getattr(m, name) for name in ["inc", "add", "first", "copy1", "axpy"]}
    ours.update(jit_inc=jit_inc, jit_first=jit_first, jit_copy1=jit_copy1)
    # Same results, and every function called once (Numba compiles here).
    for _, name, stmt in CASES:
        a = eval(stmt, {"f": ours[name], **data})
        if nb is not None:
            b = eval(stmt, {"f": nb[name.removeprefix("jit_")], **data})
            assert (a is None and b is None) or np.allclose(a, b)
    rows = []
    for what, name, stmt in CASES:
        n_calls = number if "ufunc" not in what else number // 4
        p_runs, n_runs = [], []
        for _ in range(7):
            p_runs.append(per_call_ns(stmt, {"f": ours[name], **data}, n_calls))
            if nb is not None:
                n_runs.append(per_call_ns(stmt, {"f": nb[name.removeprefix("jit_")], **data}, n_calls))
        rows.append((sorted(p_runs)[3], sorted(n_runs)[3] if n_runs else None))
    ref = [sorted(per_call_ns("2.0 * a + a", {"a": data[k]}, number // 4) for _ in range(7))[3] for k in ("x8", "x64")]
    return {"rows": rows, "numpy": ref, "numba": nb["version"] if nb else None}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--number", type=int, default=200_000, help="calls per timeit run")
    parser.add_argument("--calls", choices=["alone", "threaded"], help=argparse.SUPPRESS)
    parser.add_argument("--source", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.calls:
        print(json.dumps(calls(opts.source, opts.number, opts.calls == "threaded")))
        return

    cache = tempfile.mkdtemp(prefix="postc-bench-")
    os.environ["POSTC_CACHE_DIR"] = cache
    src = os.path.join(cache, "bench_kernels.py")
    with open(src, "w") as f:
        f.write(SOURCE)
    t0 = time.perf_counter()
    m = postc.compile(src)
    cold = time.perf_counter() - t0
    assert not m.cached
    t0 = time.perf_counter()
    m2 = postc.compile(src)
    warm = time.perf_counter() - t0
    assert m2.cached
    probe = f"import time, postc; t = time.perf_counter(); m = postc.compile({src!r}); " \
            "print(time.perf_counter() - t, m.cached)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=os.environ, check=True)
    fresh, cached = out.stdout.split()
    assert cached == "True"
    # The @jit functions into the cache too.
    jit_inc(1.0), jit_first(np.ones(1)), jit_copy1(np.ones(1), np.zeros(1))

    figures = {}
    for mode in ("alone", "threaded"):
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--calls", mode, "--source", src,
                              "--number", str(opts.number)], capture_output=True, text=True, env=os.environ,
                             check=True)
        figures[mode] = json.loads(out.stdout)
    alone, threaded = figures["alone"], figures["threaded"]

    print(f"python {sys.version.split()[0]}, numpy {np.__version__}"
          + (f", numba {alone['numba']}" if alone["numba"] else ", numba not installed")
          + f"; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print(f"compile, cold (empty cache): {cold * 1e3:.0f} ms")
    print(f"compile, warm (cache hit, same process): {warm * 1e3:.1f} ms")
    print(f"compile, warm (cache hit, in a new process): {float(fresh) * 1e3:.1f} ms")
    print()
    print("Nanoseconds per call; \"alone\": the process has one Python thread; \"threaded\": it has another,")
    print("idle one, and postc releases the GIL for each call (Numba's figure is from the same process).")
    print()
    print("| call | postc, alone | Numba | ratio | postc, threaded | Numba | ratio |")
    print("|---|---|---|---|---|---|---|")
    for (what, _, _), (p1, n1), (p2, n2) in zip(CASES, alone["rows"], threaded["rows"]):
        if n1 is None:
            print(f"| {what} | {p1:.0f} | - | - | {p2:.0f} | - | - |")
        else:
            print(f"| {what} | {p1:.0f} | {n1:.0f} | {p1 / n1:.2f}x | {p2:.0f} | {n2:.0f} | {p2 / n2:.2f}x |")
    ref = alone["numpy"]
    print(f"| NumPy `2.0 * x + x`, 8 / 64 elements (reference) | {ref[0]:.0f} / {ref[1]:.0f} | | | | | |")


if __name__ == "__main__":
    main()
