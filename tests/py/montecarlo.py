"""Pseudo-random numbers: the Park-Miller minimal standard generator in
Int64 (every product stays below 2**46), uniform variates, a Monte Carlo
estimate of pi, and a random walk."""
from postyp import Float64, Int64, Out

MODULUS: Int64 = 2147483647
MULTIPLIER: Int64 = 16807


def lcg_next(x: Int64) -> Int64:
    """x * 16807 mod (2**31 - 1)."""
    return (x * MULTIPLIER) % MODULUS


def lcg_nth(seed: Int64, n: Int64) -> Int64:
    """The n-th state after seed (Park and Miller: seed 1, n 10000 gives
    1043618065)."""
    x = seed
    for i in range(n):
        x = lcg_next(x)
    return x


def uniforms(seed: Int64, out: Out[Float64[:]]) -> Int64:
    """out[i] in (0, 1); returns the final state."""
    x = seed
    for i in range(len(out)):
        x = lcg_next(x)
        out[i] = x / MODULUS
    return x


def estimate_pi(seed: Int64, n: Int64) -> Float64:
    """4 * fraction of points (u, v) with u*u + v*v < 1."""
    x = seed
    hits = 0
    for i in range(n):
        x = lcg_next(x)
        u = x / MODULUS
        x = lcg_next(x)
        v = x / MODULUS
        if u * u + v * v < 1.0:
            hits += 1
    return 4.0 * hits / n


def random_walk(seed: Int64, steps: Int64, path: Out[Int64[:]]) -> Int64:
    """+1 or -1 steps from the low bit of each state; path[i] after step i;
    returns the maximum distance from 0."""
    x = seed
    pos = 0
    far = 0
    for i in range(steps):
        x = lcg_next(x)
        if x & 1:
            pos += 1
        else:
            pos -= 1
        path[i] = pos
        far = max(far, abs(pos))
    return far
