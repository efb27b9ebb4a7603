"""NumPy's diagonals and histograms: np.trace (offsets, the method, narrow
integers widening, views), np.eye and np.identity (shapes, diagonals,
dtypes), np.histogram of equal bins (a range given or found, widened,
empty data, Float32, integers, 2-D) and of edges given (duplicates, NaN,
the last bin closed), NumPy's ValueErrors, a range that may be None
when called, and ArviZ's density of a histogram."""
import numpy as np
from postyp import Bool, Float32, Float64, Int8, Int32, Int64, UInt8


def trace_f64(a: Float64[:, :]) -> Float64:
    """The sum of a[i, i] over the shorter axis."""
    return np.trace(a)


def trace_i8(a: Int8[:, :]) -> Int64:
    """Int8 elements are summed in Int64, as np.sum sums them."""
    return np.trace(a)


def trace_bools(a: Bool[:, :]) -> Int64:
    """Bools are counted."""
    return np.trace(a)


def trace_offset(a: Float64[:, :], k: Int64) -> Float64:
    """The diagonal k above the main one (below it when negative)."""
    return np.trace(a, offset=k)


def trace_below(a: Int32[:, :]) -> Int64:
    """The offset as the second positional argument."""
    return np.trace(a, -1)


def trace_method(a: Float32[:, :]) -> Float32:
    """The method; Float32 stays Float32."""
    return a.trace()


def eye_square(n: Int64) -> Float64[:, :]:
    """An n x n identity of Float64."""
    return np.eye(n)


def eye_wide(n: Int64, m: Int64, k: Int64) -> Float64[:, :]:
    """n x m, the ones on the k-th diagonal (none when it is outside)."""
    return np.eye(n, m, k)


def eye_int(n: Int64, k: Int64) -> Int32[:, :]:
    """`k=` and `dtype=` by keyword."""
    return np.eye(n, k=k, dtype=np.int32)


def eye_bools(n: Int64) -> Bool[:, :]:
    """M=None and the dtype by position."""
    return np.eye(n, None, 1, bool)


def identity_u8(n: Int64) -> UInt8[:, :]:
    """np.identity with a dtype."""
    return np.identity(n, dtype=np.uint8)


def eye_trace(n: Int64, m: Int64, k: Int64) -> Float64:
    """The trace of an eye along its own diagonal: how many ones it has."""
    return np.trace(np.eye(n, m, k), offset=k)


def hist_auto(a: Float64[:], bins: Int64) -> tuple[Int64[:], Float64[:]]:
    """Equal bins between a.min() and a.max()."""
    return np.histogram(a, bins)


def hist_default(a: Float64[:]) -> tuple[Int64[:], Float64[:]]:
    """Ten bins; bound to two names and returned."""
    hist, edges = np.histogram(a)
    return hist, edges


def hist_range(a: Float64[:]) -> tuple[Int64[:], Float64[:]]:
    """A range of Python floats: values outside are not counted, the last
    edge is in the last bin."""
    return np.histogram(a, bins=4, range=(-1.0, 1.0))


def hist_range_args(a: Float64[:], lo: Float64, hi: Float64, bins: Int64) -> tuple[Int64[:], Float64[:]]:
    """A range of run-time numbers."""
    return np.histogram(a, bins=bins, range=(lo, hi))


def hist_int_range(a: Int32[:]) -> tuple[Int64[:], Float64[:]]:
    """Integer data and an integer range."""
    return np.histogram(a, bins=5, range=(0, 10))


def hist_ints(a: Int64[:]) -> tuple[Int64[:], Float64[:]]:
    """Integer data, its own range (widened when it is one value)."""
    return np.histogram(a, 4)


def hist_f32(a: Float32[:]) -> tuple[Int64[:], Float32[:]]:
    """Float32 data: Float32 edges, computed in Float32."""
    return np.histogram(a, bins=7)


def hist_f32_range(a: Float32[:]) -> tuple[Int64[:], Float32[:]]:
    """Float32 data, a Python-float range: edges computed in Float64, then
    Float32; the bin found in Float64."""
    return np.histogram(a, bins=3, range=(0.1, 0.7))


def hist_matrix(a: Float64[:, :]) -> tuple[Int64[:], Float64[:]]:
    """A 2-D array is counted as the flattened one; `range=None`."""
    return np.histogram(a, bins=3, range=None, density=False, weights=None)


def hist_edges(a: Float64[:], bins: Float64[:]) -> tuple[Int64[:], Float64[:]]:
    """Edges given: e[i] <= x < e[i + 1], the last bin closed."""
    return np.histogram(a, bins=bins)


def hist_int_edges(a: Float64[:], bins: Int64[:]) -> tuple[Int64[:], Int64[:]]:
    """Integer edges come back as they are."""
    return np.histogram(a, bins)


def hist_edges_matrix(a: Int32[:, :], bins: Float64[:]) -> tuple[Int64[:], Float64[:]]:
    """Integer data of two axes between float edges; the range ignored."""
    return np.histogram(a, bins=bins, range=(0.0, 1.0))


def hist_positive_bins(a: Float64[:], bins: Int64) -> Int64:
    """The count of elements in range, through the result's first element."""
    hist, _ = np.histogram(a, bins=bins, range=(0.0, 2.0))
    return hist.sum()


def hist_finite(a: Float64[:], hi: Float64) -> Int64:
    """A range ending at `hi` (NaN or infinite: NumPy's ValueError)."""
    hist, _ = np.histogram(a, bins=2, range=(0, hi))
    return hist.sum()


def hist_float_edges(a: Float64[:], lo: Float64, hi: Float64) -> Int64:
    """A range of two floats, checked for order and finiteness."""
    return np.histogram(a, 3, (lo, hi))[0].sum()


def arviz_histogram(data: Float64[:], bins: Float64[:]) -> tuple[Int64[:], Float64[:], Float64[:]]:
    """ArviZ's histogram: the counts, the density, the edges."""
    hist, bin_edges = np.histogram(data, bins=bins, range=None)
    hist_dens = hist / (hist.sum() * np.diff(bin_edges))
    return hist, hist_dens, bin_edges


def hist_maybe_range(a: Float64[:], bins: Int64, rng: tuple[Float64, Float64] | None = None) -> tuple[Int64[:], Float64[:]]:
    """Equal bins over a range that may be None: the data's own when it is."""
    return np.histogram(a, bins=bins, range=rng)


def arviz_histogram_range(data: Float64[:], bins: Float64[:], range_hist: tuple[Float64, Float64] | None = None) -> tuple[Int64, Float64, Int64]:
    """ArviZ's histogram as written: its range handed on (edges given: unread)."""
    hist, bin_edges = np.histogram(data, bins=bins, range=range_hist)
    hist_dens = hist / (hist.sum() * np.diff(bin_edges))
    return hist.sum(), hist_dens.sum(), bin_edges.size


def count_maybe_range(a: Int32[:], rng: tuple[Int64, Int64] | None) -> Int64:
    """Integer data over an integer range that may be None."""
    return np.histogram(a, 4, rng)[0].sum()
