"""`print` in compiled code: what CPython writes for each argument, one
line per call, with `sep` and `end`."""
from postyp import Bool, Float32, Float64, Int8, Int32, Int64, UInt8, UInt64


def progress(n: Int64, tol: Float64) -> Int64:
    """An iteration that reports itself, as solvers do under `verbose`."""
    crit = 1.0
    steps = 0
    while crit > tol:
        crit = crit / 10.0
        steps += 1
        print("step", steps, "crit", crit)
        if steps >= n:
            print("stopped after", n, "steps")
            break
    return steps


def numbers(i: Int32, u: UInt64, b: UInt8, s: Int8, x: Float64, y: Float32, t: Bool) -> None:
    """Each kind of scalar, as CPython and NumPy write it."""
    print(i, u, b, s)
    print(x, y, t)
    print(-x, x * 1e20, x / 1e7, 2.0 * y)
    print(x == x, None, 7, 2.5, "text")


def separated(n: Int64) -> Int64:
    """`sep` and `end`, an empty line, and a line built over several calls."""
    print(1, 2, 3, sep=", ")
    print()
    for k in range(n):
        print(k, end=" ")
    print("|", n, sep="", end="\n")
    print("a", "b", sep="", end="")
    print(end="\n", flush=True)
    return n


def verbose_only(x: Float64[:], verbose: Bool) -> Float64:
    """Printing in a branch the caller's arguments may never take."""
    s = 0.0
    for i in range(len(x)):
        s += x[i]
        if verbose:
            print("partial", i, s)
    return s


def special_floats(x: Float64[:], y: Float32[:]) -> None:
    """Zeros, infinities, NaN, the extremes and the notation thresholds."""
    for i in range(len(x)):
        print(x[i], y[i])


def then_panics(k: Int64) -> Int64:
    """A line printed before an IndexError."""
    print("before", k)
    a = [1, 2, 3]
    return a[k]


def optional(x: Float64 | None = None, k: Int64 | None = None) -> Int64:
    """Values that may be `None`, as CPython writes each way."""
    print("x is", x, "and k is", k)
    if k is None:
        return 0
    return k
