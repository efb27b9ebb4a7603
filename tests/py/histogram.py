"""Histograms: fixed-width binning with clipping, bin counts into an
output, cumulative distribution, a mode and percentile by counting."""
from postyp import Float64, Int64, Float32, Out


def histogram(x: Float64[:], lo: Float64, hi: Float64, counts: Out[Int64[:]]) -> Int64:
    """counts[b] = values in bin b of [lo, hi); out-of-range values are
    clipped into the first or last bin. Returns the number clipped."""
    nb = len(counts)
    for b in range(nb):
        counts[b] = 0
    width = (hi - lo) / nb
    clipped = 0
    for i in range(len(x)):
        b = int((x[i] - lo) / width) if x[i] >= lo else -1
        if b < 0 or b >= nb:
            clipped += 1
        b = min(max(b, 0), nb - 1)
        counts[b] += 1
    return clipped


def cumulative(counts: Int64[:], cdf: Out[Float64[:]]) -> None:
    """cdf[b] = fraction of values in bins 0..b."""
    total = 0
    for b in range(len(counts)):
        total += counts[b]
    run = 0
    for b in range(len(counts)):
        run += counts[b]
        cdf[b] = run / total


def mode_bin(counts: Int64[:]) -> Int64:
    """Index of the fullest bin (first on ties)."""
    best = 0
    for b in range(1, len(counts)):
        if counts[b] > counts[best]:
            best = b
    return best


def bin_of32(v: Float32, lo: Float32, width: Float32, nb: Int64) -> Int64:
    """Bin of a Float32 value, computed in Float32 then truncated."""
    b = Int64((v - lo) / width)
    if b < 0:
        return 0
    return b if b < nb else nb - 1
