"""Arrays and tuples that may be `None`: parameters annotated
`Float64[:] | None`, `Optional[Float32[:, :]]` or `tuple[Int64, Int64] |
None`, with a default of `None` or none, tested with `is None` / `is not
None` before they are used, and passed on by POST callers (an array, a
tuple, `None`, or nothing) as Numba's optional arguments are."""
from typing import Optional

import numpy as np
from postyp import Float32, Float64, Int64


def weighted_mean(x: Float64[:], weights: Float64[:] | None = None) -> Float64:
    """The mean of x, weighted when weights are given."""
    if weights is None:
        return x.sum() / x.size
    return (x * weights).sum() / weights.sum()


def centroid(p: Float64[:, :], weights: Optional[Float64[:]] = None) -> Float64[:]:
    """The (weighted) centroid of the rows of p, as MNE's point fit makes it."""
    w = np.full((p.shape[0], 1), 1.0 / max(p.shape[0], 1))
    if weights is not None:
        w[:] = np.reshape(weights / weights.sum(), (weights.size, 1))
    return np.dot(w.T, p)[0]


def masked_total(a: Float32[:, :], mask: Optional[Float32[:, :]]) -> Float32:
    """The sum of a, of a * mask where a mask is given (no default)."""
    total = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if mask is not None and mask.shape[0] > 0:
                total += a[i, j] * mask[i, j]
            else:
                total += a[i, j]
    return total


def count_in(x: Int64[:], bounds: tuple[Int64, Int64] | None = None) -> Int64:
    """How many elements lie in [lo, hi), all of them without bounds."""
    if bounds is None:
        return len(x)
    lo, hi = bounds
    n = 0
    for v in x:
        if lo <= v < hi:
            n += 1
    return n


def span(bounds: Optional[tuple[Float64, Float64]] = None) -> Float64:
    """hi - lo of the bounds, or -1.0 for none: the tuple indexed."""
    if bounds is not None:
        return bounds[1] - bounds[0]
    return -1.0


def passed_on(x: Float64[:], weights: Optional[Float64[:]] = None) -> Float64:
    """Weights that may be None passed on as they are, None, and left out."""
    return weighted_mean(x, weights) + weighted_mean(x, weights=None) + weighted_mean(x)


def both_ways(x: Float64[:]) -> Float64:
    """A POST caller's two ways: nothing, and an array (a view of one)."""
    return passed_on(x) + passed_on(x, x[::-1])


def in_range(x: Int64[:]) -> Int64:
    """A POST caller's three ways for a tuple: nothing, a tuple, None."""
    return count_in(x) * 1000 + count_in(x, (2, 5)) * 10 + count_in(x, None)

