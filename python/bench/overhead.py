"""Call overhead and compile time of the postc package, against Numba when
it is installed (docs/performance.md quotes this script's output).

    python python/bench/overhead.py

Each figure is the median of 7 runs of `timeit` loops."""
import os
import subprocess
import sys
import tempfile
import textwrap
import time
import timeit

import numpy as np

import postc

SOURCE = textwrap.dedent('''\
    from postyp import Float64, Out
    from postc import ufunc

    def first(x: Float64[:]) -> Float64:
        return x[0]

    def copy1(x: Float64[:], y: Out[Float64[:]]) -> None:
        y[0] = x[0]

    def add(a: Float64, b: Float64) -> Float64:
        return a + b

    @ufunc
    def axpy(a: Float64, x: Float64, y: Float64) -> Float64:
        return a * x + y
''')


def per_call(stmt, number=200_000):
    t = timeit.repeat(stmt, number=number, repeat=7)
    return sorted(t)[3] / number * 1e9


def main():
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

    x1, y1 = np.ones(1), np.zeros(1)
    small = [np.arange(n, dtype=np.float64) for n in (8, 64)]
    rows = []
    rows.append(("plain function, x: Float64[:] 1 element -> Float64", per_call(lambda: m.first(x1))))
    rows.append(("plain function, 1-element input and Out array", per_call(lambda: m.copy1(x1, y1))))
    rows.append(("plain function, two Python floats", per_call(lambda: m.add(1.0, 2.0))))
    for a in small:
        rows.append((f"ufunc axpy(2.0, x, x), {a.size} elements", per_call(lambda a=a: m.axpy(2.0, a, a), 100_000)))
    try:
        import numba
    except ImportError:
        numba = None
    nrows = []
    if numba is not None:
        @numba.njit
        def first(x):
            return x[0]

        @numba.njit
        def copy1(x, y):
            y[0] = x[0]

        @numba.njit
        def add(a, b):
            return a + b

        @numba.vectorize(["float64(float64, float64, float64)"])
        def axpy(a, x, y):
            return a * x + y

        first(x1), copy1(x1, y1), add(1.0, 2.0)
        nrows.append(per_call(lambda: first(x1)))
        nrows.append(per_call(lambda: copy1(x1, y1)))
        nrows.append(per_call(lambda: add(1.0, 2.0)))
        for a in small:
            nrows.append(per_call(lambda a=a: axpy(2.0, a, a), 100_000))
    numpy_axpy = [per_call(lambda a=a: 2.0 * a + a, 100_000) for a in small]

    print(f"python {sys.version.split()[0]}, numpy {np.__version__}"
          + (f", numba {numba.__version__}" if numba else ", numba not installed"))
    print(f"compile, cold (empty cache): {cold * 1e3:.0f} ms")
    print(f"compile, warm (cache hit, same process): {warm * 1e3:.1f} ms")
    print(f"compile, warm (cache hit, in a new process): {float(fresh) * 1e3:.1f} ms")
    print()
    print(f"| call | postc ns | numba ns |")
    print(f"|---|---|---|")
    for i, (what, ns) in enumerate(rows):
        nb = f"{nrows[i]:.0f}" if nrows else "-"
        print(f"| {what} | {ns:.0f} | {nb} |")
    for a, ns in zip(small, numpy_axpy):
        print(f"| NumPy 2.0 * x + x, {a.size} elements (reference) | {ns:.0f} | - |")


if __name__ == "__main__":
    main()
