"""`for` over arrays, `enumerate` and `zip`, and `for ... else` /
`while ... else`: the else clause runs when the loop ends without
`break`; `for` over a range held in a local."""
import numpy as np
from postyp import Bool, Float64, Int32, Int64, Out


def total(a: Float64[:]) -> Float64:
    """Each element in turn."""
    s = 0.0
    for x in a:
        s += x
    return s


def weighted(a: Int32[:]) -> Int64:
    """Index and element from enumerate."""
    s = 0
    for i, x in enumerate(a):
        s += i * x
    return s


def dot(a: Float64[:], b: Float64[:]) -> Float64:
    """zip stops at the shorter array."""
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s


def first_negative(a: Int64[:]) -> Int64:
    """The index of the first negative element, or -1 (for ... else)."""
    found = -1
    for i, x in enumerate(a):
        if x < 0:
            found = i
            break
    else:
        found = -1
    return found


def is_prime(n: Int64) -> Bool:
    """Trial division with for ... else."""
    if n < 2:
        return False
    result = True
    for d in range(2, n):
        if d * d > n:
            break
        if n % d == 0:
            result = False
            break
    else:
        result = True
    return result


def count_down(n: Int64) -> Int64:
    """while ... else: the else runs when the condition fails."""
    steps = 0
    while n > 0:
        n -= 3
        steps += 1
        if steps > 100:
            break
    else:
        steps += 1000
    return steps


def running_max(a: Float64[:], out: Out[Float64[:]]) -> None:
    """Writes seen by later iterations: the element is read at each step."""
    m = a[0]
    for i, x in enumerate(a):
        if x > m:
            m = x
        out[i] = m


def triples(a: Int32[:], b: Int32[:], c: Int32[:]) -> Int64:
    """zip of three."""
    s = 0
    for x, y, z in zip(a, b, c):
        s += x * y - z
    return s


def steps(w: Float64[:], n: Int64) -> Float64:
    """`zip(range(n), a)`: the index steps with the array and the shorter
    ends the loop (librosa's DTW loops over its steps so)."""
    s = 0.0
    for i, x in zip(range(n), w):
        s += (i + 1) * x
    return s


def stepped(w: Float64[:], v: Int32[:], start: Int64, step: Int64) -> Float64:
    """A range with a start and a run-time step (negative too), zipped
    with two arrays; enumerate over a range."""
    s = 0.0
    for i, x, y in zip(range(start, 100 * step, step), w, v):
        s += i * x + y
    for k, j in enumerate(range(start, start + 3)):
        s += k * j
    return s


def signs(x: Float64, n: Int64) -> Float64:
    """`for sign in [1, -1]`: a list display's values in turn, as
    librosa's search over fifths tries each sign."""
    s = 0.5
    for power in range(n):
        for sign in [1, -1]:
            if sign * x > 6 - power:
                return power * sign + s
            s = s * 2.0 + sign
    return s


def group_sum(values: Float64[:], labels: Int64[:], out: Out[Float64[:]]) -> Int64:
    """np.ndindex over a 1-D shape: a tuple of one index (numbagg's
    grouped kernels); a label beyond `out` panics as NumPy raises."""
    out[:] = 0
    skipped = 0
    for indices in np.ndindex(values.shape):
        label = labels[indices]
        if label < 0:
            skipped += 1
            continue
        out[label] += values[indices]
    return skipped


def grid_walk(a: Float64[:, :], stop_row: Int64) -> Float64:
    """Indices unpacked into names, C order; a tuple index; `break`
    leaves the whole walk."""
    s = 0.0
    for i, j in np.ndindex(a.shape):
        s += a[i, j] * (i + 1) - j
    for idx in np.ndindex(a.shape[0], 2):
        if idx[0] == stop_row:
            break
        s = s * 0.5 + a[idx]
    return s


def count_cells(n: Int64, m: Int64) -> Int64:
    """np.ndindex of integers; an empty or negative extent."""
    c = 0
    for i, j in np.ndindex(n, m):
        c += 10 * i + j
    return c


def walk(a: Float64[:], direction: Int64) -> Float64:
    """scanpy's order of a walk: a range held in a local, picked by a
    conditional, then run over."""
    n = len(a)
    order = range(n) if direction == 1 else range(n - 1, -1, -1)
    acc = 0.0
    for i in order:
        acc = acc * 0.5 + a[i]
    return acc


def held_steps(n: Int64, k: Int64) -> Int64:
    """A range local whose step is a parameter: zero panics where the
    range is made, as CPython's ValueError."""
    r = range(0, n, k)
    t = 0
    if n < 0:
        return -1
    for i in r:
        t += i
    return t


def over_made_arrays(a: Float64[:, :]) -> Float64:
    """Loops over arrays a call or an operator makes: the flat elements
    of a 2-D array in C order, then twice its first row."""
    acc = 0.0
    for v in a.ravel():
        acc = acc * 0.5 + v
    for v in a[0] * 2.0:
        acc += v
    return acc
