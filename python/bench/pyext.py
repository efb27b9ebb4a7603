"""An extension module made ahead of time (`postc compile --emit pyext`,
docs/aot.md) against the package and Numba: the time to import a module of
20 functions and a ufunc, its size, and the time per call of the kernels
of overhead.py through the extension, through the same extension built for
CPython's stable ABI (`--abi3`), through `postc.compile`'s module and
through Numba, all in one run (docs/performance.md quotes its output).

    POSTC_PYABI_LIB=... POSTC_PYABI_ABI3_LIB=... python python/bench/pyext.py [--number N] [--compiler PYTHON]

`--compiler` names the Python whose `postc` builds the extensions (by
default this one; the libraries come from the installed package unless the
variables name others). Each per-call figure is the median of 7 `timeit`
runs, the four alternating, in one process with a single Python thread
whose compile hits the package's cache. The import time is the median over
21 fresh processes of `import NAME` after NumPy has been imported."""
import argparse
import json
import os
import subprocess
import sys
import sysconfig
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import overhead  # noqa: E402  (the kernels, their Numba versions and the timing of overhead.py)

# overhead.py's module and 16 more functions: 20 functions and a ufunc.
KERNELS = '"""The kernels of the extension-module benchmark."""\nfrom postyp import Int64\n' + overhead.SOURCE + "".join(
    f"\n\ndef more{i}(x: Float64[:], k: Int64) -> Float64:\n"
    f"    s = 0.0\n    for j in range(k):\n        s += x[j] * {i + 1}.0\n    return s\n"
    for i in range(16))

# overhead.py's cases of a module's functions and ufunc (not `@jit`).
CASES = [c for c in overhead.CASES if not c[1].startswith("jit_")]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--number", type=int, default=200_000, help="calls per timeit run")
    parser.add_argument("--compiler", default=sys.executable, help="the Python whose postc builds the extensions")
    opts = parser.parse_args()
    import postc

    work = tempfile.mkdtemp(prefix="postc-pyext-bench-")
    os.environ["POSTC_CACHE_DIR"] = os.path.join(work, "cache")
    src = os.path.join(work, "aot_kernels.py")
    with open(src, "w") as f:
        f.write(KERNELS)
    ext = os.path.join(work, "aot_kernels" + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run([opts.compiler, "-m", "postc", "compile", "-O2", "--emit", "pyext", src, "-o", ext,
                    "--python", sys.executable], check=True)
    # The same source as a module of another name, for the stable ABI.
    abi3_src = os.path.join(work, "aot_kernels_abi3.py")
    with open(abi3_src, "w") as f:
        f.write(KERNELS)
    abi3_ext = os.path.join(work, "aot_kernels_abi3.abi3.so")
    subprocess.run([opts.compiler, "-m", "postc", "compile", "-O2", "--emit", "pyext", "--abi3", abi3_src, "-o",
                    abi3_ext, "--python", sys.executable], check=True)

    probe = ("import sys, time, numpy; sys.path.insert(0, %r); t = time.perf_counter(); import aot_kernels; "
             "print(time.perf_counter() - t, len([k for k in vars(aot_kernels) if not k.startswith('__')]))" % work)
    imports = []
    for _ in range(21):
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=work)
        seconds, count = out.stdout.split()
        imports.append(float(seconds))
    # 20 functions, a ufunc, set_num_threads and get_num_threads.
    assert count == "23", count
    pkg_probe = ("import time, numpy; t = time.perf_counter(); import postc; m = postc.compile(%r); "
                 "print(time.perf_counter() - t, m.cached)" % src)
    postc.compile(src)
    package_loads = []
    for _ in range(7):
        out = subprocess.run([sys.executable, "-c", pkg_probe], capture_output=True, text=True, check=True,
                             env=os.environ)
        seconds, cached = out.stdout.split()
        assert cached == "True"
        package_loads.append(float(seconds))

    sys.path.insert(0, work)
    import aot_kernels
    import aot_kernels_abi3

    pkg = postc.compile(src)
    nb = overhead.numba_kernels()
    numba_version = nb["version"]
    data = {"x1": np.ones(1), "y1": np.zeros(1), "x8": np.arange(8.0), "x64": np.arange(64.0)}
    ways = {"pyext": aot_kernels, "abi3": aot_kernels_abi3, "package": pkg, "numba": None}
    for _, name, stmt in CASES:
        results = [eval(stmt, {"f": nb[name] if m is None else getattr(m, name), **data}) for m in ways.values()]
        assert all((r is None and results[0] is None) or np.array_equal(r, results[0]) for r in results)
    rows = []
    for what, name, stmt in CASES:
        n = opts.number if "ufunc" not in what else opts.number // 4
        runs = {k: [] for k in ways}
        for _ in range(7):
            for k, m in ways.items():
                f = nb[name] if m is None else getattr(m, name)
                runs[k].append(overhead.per_call_ns(stmt, {"f": f, **data}, n))
        rows.append((what, {k: sorted(v)[3] for k, v in runs.items()}))

    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, numba {numba_version}; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print(f"extension module: {os.path.getsize(ext) / 1e6:.2f} MB, 20 functions and a ufunc "
          f"({os.path.getsize(abi3_ext) / 1e6:.2f} MB for the stable ABI)")
    print(f"import of the extension module (NumPy imported): median {sorted(imports)[10] * 1e3:.2f} ms, "
          f"min {min(imports) * 1e3:.2f} ms")
    print(f"import postc + postc.compile of the same module (cache hit): median {sorted(package_loads)[3] * 1e3:.1f} ms")
    print()
    print("| call | pyext | abi3 | package | Numba | pyext / package | abi3 / pyext | pyext / Numba |")
    print("|---|---|---|---|---|---|---|---|")
    for what, r in rows:
        print(f"| {what} | {r['pyext']:.0f} | {r['abi3']:.0f} | {r['package']:.0f} | {r['numba']:.0f} | "
              f"{r['pyext'] / r['package']:.2f}x | {r['abi3'] / r['pyext']:.2f}x | {r['pyext'] / r['numba']:.2f}x |")
    print(json.dumps({"rows": rows}), file=sys.stderr)


if __name__ == "__main__":
    main()
