"""The time per call of an exported function with defaulted parameters,
by how its arguments are passed: all four positionally (the call that
binds nothing), one with the other three left to their defaults, and by
keyword; and of the same function without defaults called positionally,
which a build from before defaults compiles too (docs/performance.md
quotes this script's output).

    python python/bench/defaults.py [--number N]

Each figure is the median of 7 `timeit` runs, in nanoseconds; what the
installed package refuses is shown as its error's first line."""
import argparse
import os
import tempfile
import timeit

import postc

PLAIN = '''\
from postyp import Float64, Int64


def poly(x: Float64, a: Float64, b: Float64, c: Int64) -> Float64:
    return a * x * x + b * x + c
'''

SOURCE = PLAIN.replace("a: Float64, b: Float64, c: Int64", "a: Float64 = 1.0, b: Float64 = -2.0, c: Int64 = 3")

CASES = [
    ("no defaults, by position", "plain(2.0, 1.0, -2.0, 3)"),
    ("every argument by position", "f(2.0, 1.0, -2.0, 3)"),
    ("x alone, three defaults", "f(2.0)"),
    ("x, one keyword, two defaults", "f(2.0, c=3)"),
    ("every argument by keyword", "f(x=2.0, a=1.0, b=-2.0, c=3)"),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--number", type=int, default=200_000, help="calls per timeit run")
    args = parser.parse_args()
    names = {}
    with tempfile.TemporaryDirectory() as d:
        for name, source in [("plain", PLAIN), ("f", SOURCE)]:
            path = os.path.join(d, f"defaults_bench_{name}.py")
            with open(path, "w") as f:
                f.write(source)
            try:
                names[name] = postc.compile(path).poly
            except postc.CompileError as e:
                names[name] = str(e).splitlines()[0]
        for what, stmt in CASES:
            refused = names[stmt.split("(")[0]]
            if isinstance(refused, str):
                print(f"{what:28} {stmt:28} {refused}")
                continue
            try:
                eval(stmt, names)
            except TypeError as e:
                print(f"{what:28} {stmt:28} {e}")
                continue
            runs = sorted(timeit.timeit(stmt, number=args.number, globals=names) for _ in range(7))
            print(f"{what:28} {stmt:28} {runs[3] / args.number * 1e9:8.1f} ns")


if __name__ == "__main__":
    main()
