"""The first call of a module's functions in a fresh process, postc against
Numba in the same run (docs/performance.md quotes this script's output).

    python python/bench/startup.py [--runs N]

The module is seven functions of one file (scalar code, loops over arrays,
a function calling another), called once each, as a script's first
iteration calls them; a last row calls one of them only. For each tool a new interpreter imports it, compiles
the seven (postc: `@postc.jit` on each; Numba: `@numba.njit`) and calls
each once:
- cold: an empty cache (postc) / no cache (Numba's default);
- warm: the same again with the cache the cold run filled (postc's default
  cache; Numba with `cache=True`, its cache filled by a first run).
Times are wall-clock inside the process, from before `import postc` /
`import numba` to the seventh result, the median of the runs; interpreter
start-up and `import numpy` come before and are not counted."""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

KERNELS = textwrap.dedent('''\
    import time
    T0 = time.perf_counter()
    import numpy as np
    from postyp import Float64, Int64, Out
    T1 = time.perf_counter()
    if TOOL == "postc":
        import postc
        jit = postc.jit
    else:
        import numba
        jit = numba.njit(cache=CACHE)


    @jit
    def clip(x: Float64, lo: Float64, hi: Float64) -> Float64:
        return min(max(x, lo), hi)


    @jit
    def total(a: Float64[:]) -> Float64:
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i]
        return s


    @jit
    def dot(a: Float64[:], b: Float64[:]) -> Float64:
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * b[i]
        return s


    @jit
    def count_above(a: Float64[:], t: Float64) -> Int64:
        n = 0
        for i in range(a.shape[0]):
            if a[i] > t:
                n += 1
        return n


    @jit
    def collatz(n: Int64) -> Int64:
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps


    @jit
    def smooth(a: Float64[:], out: Out[Float64[:]]) -> None:
        for i in range(1, a.shape[0] - 1):
            out[i] = clip((a[i - 1] + a[i] + a[i + 1]) / 3.0, -1.0, 1.0)


    @jit
    def norm2(a: Float64[:, :]) -> Float64:
        s = 0.0
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                s += a[i, j] * a[i, j]
        return s


    a = np.linspace(-2.0, 2.0, 1000)
    out = np.zeros_like(a)
    if ONE:
        results = (collatz(27),)
    else:
        results = (clip(3.0, 0.0, 1.0), total(a), dot(a, a), count_above(a, 0.5), collatz(27), smooth(a, out),
                   norm2(a.reshape(10, 100)))
    T2 = time.perf_counter()
    print(T2 - T1, T1 - T0)
''')


def run(tool, cache, postc_cache, numba_cache, workdir, one=False):
    path = os.path.join(workdir, f"first_calls_{tool}{'_one' if one else ''}.py")
    with open(path, "w") as f:
        f.write(f"TOOL = {tool!r}\nCACHE = {cache!r}\nONE = {one!r}\n" + KERNELS)
    env = dict(os.environ, POSTC_CACHE_DIR=postc_cache, NUMBA_CACHE_DIR=numba_cache)
    env.pop("POSTC_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, path], capture_output=True, text=True, env=env, check=True)
    return float(out.stdout.split()[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    try:
        import numba
        tools = ["postc", "numba"]
    except ImportError:
        numba = None
        tools = ["postc"]
    cold = {t: [] for t in tools}
    warm = {t: [] for t in tools}
    one = {t: [] for t in tools}
    for _ in range(args.runs):
        for tool in tools:
            with tempfile.TemporaryDirectory() as d:
                pc, nc = os.path.join(d, "postc"), os.path.join(d, "numba")
                cold[tool].append(run(tool, False, pc, nc, d))
                if tool == "numba":
                    run(tool, True, pc, nc, d)  # fills Numba's cache
                warm[tool].append(run(tool, tool == "numba", pc, nc, d))
                run(tool, tool == "numba", pc, nc, d, one=True)  # fills the caches
                one[tool].append(run(tool, tool == "numba", pc, nc, d, one=True))
    import numpy as np
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}"
          + (f", numba {numba.__version__}" if numba else ", numba not installed") + f", {args.runs} runs")
    print("| first call of 7 functions, fresh process | " + " | ".join(f"{t} ms" for t in tools)
          + (" | postc / numba |" if numba else " |"))
    print("|---|" + "---|" * (len(tools) + (1 if numba else 0)))
    for what, d in (("cold (empty cache)", cold), ("warm (cache filled)", warm),
                    ("warm, one function (the import and one first call)", one)):
        meds = [statistics.median(d[t]) for t in tools]
        row = f"| {what} | " + " | ".join(f"{m * 1e3:.1f}" for m in meds)
        if numba:
            row += f" | {meds[0] / meds[1]:.2f}x"
        print(row + " |")


if __name__ == "__main__":
    main()
