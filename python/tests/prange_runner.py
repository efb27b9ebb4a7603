"""Runs prange_kernels.py on 1, 2 and 7 threads and prints what it saw as
JSON. test_prange.py starts it with POSTC_NUM_THREADS=8, the most
`set_num_threads` then accepts, so the thread counts do not depend on how
many CPUs the test machine has."""
import concurrent.futures
import ctypes
import json
import os
import sys

import numpy as np

import postc

HERE = os.path.dirname(os.path.abspath(__file__))
N = 1_000_000
THREADS = (1, 2, 7)


def runtime_threads(module):
    """The thread count of the module's own copy of the runtime (loading the
    same path again gives the same library)."""
    return ctypes.CDLL(module.library).postc_rt_get_num_threads()


def outcome(call):
    try:
        return {"value": float(call())}
    except Exception as e:  # noqa: BLE001 - the test checks the kind
        return {"error": type(e).__name__, "message": str(e)}


# Every backend that runs `prange` on the pool, at both levels: each
# library has its own copy of the runtime and pool.
BUILDS = [(backend, opt) for backend in ("llvm", "c", "qbe") for opt in (0, 2)]


def results(m, a):
    """What one library computes on the current thread count."""
    return {
        "runtime": runtime_threads(m),
        "harmonic": m.harmonic(N).hex(),
        "growth": m.growth(N).hex(),
        "spread": m.spread(N).hex(),
        "mixed": int(m.mixed(N)),
        "panic": outcome(lambda: m.past_end(a, 1000)),
    }


def main():
    kernels = os.path.join(HERE, "prange_kernels.py")
    m = postc.compile(kernels)
    builds = {f"{b}-O{o}": postc.compile(kernels, backend=b, opt=o) for b, o in BUILDS}
    out = {"default": postc.get_num_threads(), "runs": {}}
    a = np.arange(700.0)
    for t in THREADS:
        postc.set_num_threads(t)
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            at_once = [f.result() for f in [pool.submit(m.harmonic, N) for _ in range(8)]]
        out["runs"][t] = {
            "get": postc.get_num_threads(),
            "runtime": runtime_threads(m),
            "harmonic": m.harmonic(N).hex(),
            "growth": m.growth(N).hex(),
            "spread": m.spread(N).hex(),
            "mixed": int(m.mixed(N)),
            "builds": {name: results(b, a) for name, b in builds.items()},
            "concurrent": [x.hex() for x in at_once],
            "panic": outcome(lambda: m.past_end(a, 1000)),
            "after_panic": outcome(lambda: m.past_end(a, 700)),
        }
    # A module loaded after the setting gets it too.
    postc.set_num_threads(3)
    later = postc.compile("from postc import prange\nfrom postyp import Int64\n\n\n"
                          "def later(n: Int64) -> Int64:\n    s = 0\n    for i in prange(n):\n"
                          "        s += i\n    return s\n")
    out["later"] = {"runtime": runtime_threads(later), "earlier": runtime_threads(m),
                    "value": int(later.later(1000))}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
