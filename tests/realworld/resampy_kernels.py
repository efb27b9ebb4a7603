"""Kernel of resampy (https://github.com/bmcfee/resampy), ISC licence,
Copyright (c) 2016, Brian McFee."""
import numpy as np

from postyp import Float64, Int64, Out

prange = range  # the original imports numba's prange; CPython runs it as range


# _resample_loop: bmcfee/resampy, resampy/interpn.py @ 67263d6fc03028d24b69e775a77d12265c7295d9
#   function `_resample_loop`; licence ISC; Copyright (c) 2016, Brian McFee
#   changed: type annotations added; the array it writes marked Out; the Numba wrapping dropped (the module compiles it as
#   `_resample_loop_s = jit(nopython=True, nogil=True, parallel=False)(_resample_loop)`
#   and `_resample_loop_p` with parallel=True, each called by a @guvectorize
#   "(n),(m),(p),(p),(),()->(m)" wrapper over the last axis)
#   original signature: def _resample_loop(x, t_out, interp_win, interp_delta, num_table, scale, y):
def _resample_loop(
    x: Float64[:],
    t_out: Float64[:],
    interp_win: Float64[:],
    interp_delta: Float64[:],
    num_table: Int64,
    scale: Float64,
    y: Out[Float64[:]],
) -> None:

    index_step = int(scale * num_table)
    time_register = 0.0

    n = 0
    frac = 0.0
    index_frac = 0.0
    offset = 0
    eta = 0.0
    weight = 0.0

    nwin = interp_win.shape[0]
    n_orig = x.shape[0]
    n_out = t_out.shape[0]

    for t in prange(n_out):
        time_register = t_out[t]

        # Grab the top bits as an index to the input buffer
        n = int(time_register)

        # Grab the fractional component of the time index
        frac = scale * (time_register - n)

        # Offset into the filter
        index_frac = frac * num_table
        offset = int(index_frac)

        # Interpolation factor
        eta = index_frac - offset

        # Compute the left wing of the filter response
        i_max = min(n + 1, (nwin - offset) // index_step)
        for i in range(i_max):

            weight = (
                interp_win[offset + i * index_step]
                + eta * interp_delta[offset + i * index_step]
            )
            y[t] += weight * x[n - i]

        # Invert P
        frac = scale - frac

        # Offset into the filter
        index_frac = frac * num_table
        offset = int(index_frac)

        # Interpolation factor
        eta = index_frac - offset

        # Compute the right wing of the filter response
        k_max = min(n_orig - n - 1, (nwin - offset) // index_step)
        for k in range(k_max):
            weight = (
                interp_win[offset + k * index_step]
                + eta * interp_delta[offset + k * index_step]
            )
            y[t] += weight * x[n + k + 1]


# ---------------------------------------------------------------------------
# Call recipe: what resampy.resample(x, 22050, 16000, filter='sinc_window')
# passes to resample_f_s for a 1-D signal: the right wing of a Hann-windowed
# sinc (resampy.filters.sinc_window with its defaults, num_zeros=64,
# precision=9, rolloff=0.945), scaled by the sample ratio when downsampling,
# its differences, the output times and a zeroed output buffer.

def args__resample_loop():
    sr_orig, sr_new = 22050, 16000
    x = np.random.RandomState(0).randn(2048)
    num_zeros, precision, rolloff = 64, 9, 0.945
    num_bits = 2**precision
    n = num_bits * num_zeros
    sinc_win = rolloff * np.sinc(rolloff * np.linspace(0, num_zeros, num=n + 1, endpoint=True))
    taper = np.hanning(2 * n + 1)[n:]
    interp_win = taper * sinc_win
    sample_ratio = float(sr_new) / sr_orig
    interp_win = sample_ratio * interp_win
    interp_delta = np.diff(interp_win, append=interp_win[-1])
    scale = min(1.0, sample_ratio)
    n_out = int(x.shape[0] * float(sr_new) / float(sr_orig))
    t_out = np.arange(n_out) * (1.0 / sample_ratio)
    y = np.zeros(n_out, dtype=x.dtype)
    return (x, t_out, interp_win, interp_delta, num_bits, scale, y)
