"""Kernels of librosa (https://github.com/librosa/librosa), ISC licence,
Copyright (c) 2013--2023, librosa development team."""
import numpy as np

from postyp import Bool, Float32, Float64, Int32, Int64, Out


# __num_two_factors: librosa/librosa, librosa/core/constantq.py @ b7e7bf486353821311f68d756e487f65d09cf319
#   function `__num_two_factors`; licence ISC; Copyright (c) 2013--2023, librosa development team (ISC)
#   changed: type annotations added; Numba decorator removed (it was @jit(nopython=True, cache=True))
#   original signature: def __num_two_factors(x):
def __num_two_factors(x: Int64) -> Int64:
    """Return how many times integer x can be evenly divided by 2.

    Returns 0 for non-positive integers.
    """
    if x <= 0:
        return 0
    num_twos = 0
    while x % 2 == 0:
        num_twos += 1
        x //= 2

    return num_twos


# __o_fold: librosa/librosa, librosa/core/notation.py @ b7e7bf486353821311f68d756e487f65d09cf319
#   function `__o_fold`; licence ISC; Copyright (c) 2013--2023, librosa development team (ISC)
#   changed: type annotations added; Numba decorator removed (it was @jit(nopython=True, nogil=True, cache=True))
#   original signature: def __o_fold(d):
def __o_fold(d: Float64) -> Float64:
    """Compute the octave-folded interval.

    This maps intervals to the range [1, 2).

    This is part of the FJS notation converter.
    It is equivalent to the `red` function described in the FJS
    documentation.
    """
    return d * (2.0 ** -np.floor(np.log2(d)))


# __bo_fold: librosa/librosa, librosa/core/notation.py @ b7e7bf486353821311f68d756e487f65d09cf319
#   function `__bo_fold`; licence ISC; Copyright (c) 2013--2023, librosa development team (ISC)
#   changed: type annotations added; Numba decorator removed (it was @jit(nopython=True, nogil=True, cache=True))
#   original signature: def __bo_fold(d):
def __bo_fold(d: Float64) -> Float64:
    """Compute the balanced, octave-folded interval.

    This maps intervals to the range [sqrt(2)/2, sqrt(2)).

    This is part of the FJS notation converter.
    It is equivalent to the `reb` function described in the FJS
    documentation, but with a simpler implementation.
    """
    return d * (2.0 ** -np.round(np.log2(d)))


# __fifth_search: librosa/librosa, librosa/core/notation.py @ b7e7bf486353821311f68d756e487f65d09cf319
#   function `__fifth_search`; licence ISC; Copyright (c) 2013--2023, librosa development team (ISC)
#   changed: type annotations added; Numba decorator removed (it was @jit(nopython=True, nogil=True, cache=True))
#   original signature: def __fifth_search(interval, tolerance):
def __fifth_search(interval: Float64, tolerance: Float64) -> Int64:
    """Accelerated helper function for finding the number of fifths
    to get within tolerance of a given interval.

    This implementation will give up after 32 fifths
    """
    log_tolerance = np.abs(np.log2(tolerance))
    for power in range(32):
        for sign in [1, -1]:
            if (
                np.abs(np.log2(__bo_fold(interval / 3.0 ** (power * sign))))
                <= log_tolerance
            ):
                return power * sign
        power += 1
    return power


# __window_ss_fill: librosa/librosa, librosa/filters.py @ b7e7bf486353821311f68d756e487f65d09cf319
#   function `__window_ss_fill`; licence ISC; Copyright (c) 2013--2023, librosa development team (ISC)
#   changed: type annotations added; Numba decorator removed (it was @jit(nopython=True, cache=True))
#   original signature: def __window_ss_fill(x, win_sq, n_frames, hop_length):
def __window_ss_fill(x: Out[Float32[:]], win_sq: Float64[:], n_frames: Int64, hop_length: Int64) -> None:  # pragma: no cover
    """Compute the sum-square envelope of a window."""
    n = len(x)
    n_fft = len(win_sq)
    for i in range(n_frames):
        sample = i * hop_length
        x[sample : min(n, sample + n_fft)] += win_sq[: max(0, min(n_fft, n - sample))]


# __overlap_add: librosa/librosa, librosa/core/spectrum.py @ b7e7bf486353821311f68d756e487f65d09cf319
#   function `__overlap_add`; licence ISC; Copyright (c) 2013--2023, librosa development team (ISC)
#   changed: type annotations added; Numba decorator removed (it was @jit(nopython=True, cache=True))
#   original signature: def __overlap_add(y, ytmp, hop_length):
def __overlap_add(y: Out[Float32[:]], ytmp: Float64[:, :], hop_length: Int64) -> None:
    # numba-accelerated overlap add for inverse stft
    # y is the pre-allocated output buffer
    # ytmp is the windowed inverse-stft frames
    # hop_length is the hop-length of the STFT analysis

    n_fft = ytmp.shape[-2]
    N = n_fft
    for frame in range(ytmp.shape[-1]):
        sample = frame * hop_length
        if N > y.shape[-1] - sample:
            N = y.shape[-1] - sample

        y[..., sample : (sample + N)] += ytmp[..., :N, frame]


# __lpc: librosa/librosa, librosa/core/audio.py @ b7e7bf486353821311f68d756e487f65d09cf319
#   function `__lpc`; licence ISC; Copyright (c) 2013--2023, librosa development team (ISC)
#   changed: the project's annotations replaced by postyp types; Numba decorator removed (it was @jit(nopython=True, cache=True))
#   original signature: def __lpc(y: np.ndarray, order: int, ar_coeffs: np.ndarray, ar_coeffs_prev: np.ndarray, reflect_coeff: np.ndarray, den: np.ndarray, epsilon: float) -> np.ndarray:
def __lpc(
    y: Float64[:],
    order: Int64,
    ar_coeffs: Out[Float64[:]],
    ar_coeffs_prev: Out[Float64[:]],
    reflect_coeff: Out[Float64[:]],
    den: Out[Float64[:]],
    epsilon: Float64,
) -> Float64[:]:
    # This implementation follows the description of Burg's algorithm given in
    # section III of Marple's paper referenced in the docstring.
    #
    # We use the Levinson-Durbin recursion to compute AR coefficients for each
    # increasing model order by using those from the last. We maintain two
    # arrays and then flip them each time we increase the model order so that
    # we may use all the coefficients from the previous order while we compute
    # those for the new one. These two arrays hold ar_coeffs for order M and
    # order M-1.  (Corresponding to a_{M,k} and a_{M-1,k} in eqn 5)

    # These two arrays hold the forward and backward prediction error. They
    # correspond to f_{M-1,k} and b_{M-1,k} in eqns 10, 11, 13 and 14 of
    # Marple. First they are used to compute the reflection coefficient at
    # order M from M-1 then are used as f_{M,k} and b_{M,k} for each
    # iteration of the below loop
    fwd_pred_error = y[1:]
    bwd_pred_error = y[:-1]

    # DEN_{M} from eqn 16 of Marple.
    den[0] = np.sum(fwd_pred_error**2 + bwd_pred_error**2, axis=0)

    for i in range(order):
        # can be removed if we keep the epsilon bias
        # if np.any(den <= 0):
        #    raise FloatingPointError("numerical error, input ill-conditioned?")

        # Eqn 15 of Marple, with fwd_pred_error and bwd_pred_error
        # corresponding to f_{M-1,k+1} and b{M-1,k} and the result as a_{M,M}

        reflect_coeff[0] = np.sum(bwd_pred_error * fwd_pred_error, axis=0)
        reflect_coeff[0] *= -2
        reflect_coeff[0] /= den[0] + epsilon

        # Now we use the reflection coefficient and the AR coefficients from
        # the last model order to compute all of the AR coefficients for the
        # current one.  This is the Levinson-Durbin recursion described in
        # eqn 5.
        # Note 1: We don't have to care about complex conjugates as our signals
        # are all real-valued
        # Note 2: j counts 1..order+1, i-j+1 counts order..0
        # Note 3: The first element of ar_coeffs* is always 1, which copies in
        # the reflection coefficient at the end of the new AR coefficient array
        # after the preceding coefficients

        ar_coeffs_prev, ar_coeffs = ar_coeffs, ar_coeffs_prev
        for j in range(1, i + 2):
            # reflection multiply should be broadcast
            ar_coeffs[j] = (
                ar_coeffs_prev[j] + reflect_coeff[0] * ar_coeffs_prev[i - j + 1]
            )

        # Update the forward and backward prediction errors corresponding to
        # eqns 13 and 14.  We start with f_{M-1,k+1} and b_{M-1,k} and use them
        # to compute f_{M,k} and b_{M,k}
        fwd_pred_error_tmp = fwd_pred_error
        fwd_pred_error = fwd_pred_error + reflect_coeff * bwd_pred_error
        bwd_pred_error = bwd_pred_error + reflect_coeff * fwd_pred_error_tmp

        # SNIP - we are now done with order M and advance. M-1 <- M

        # Compute DEN_{M} using the recursion from eqn 17.
        #
        # reflect_coeff = a_{M-1,M-1}      (we have advanced M)
        # den =  DEN_{M-1}                 (rhs)
        # bwd_pred_error = b_{M-1,N-M+1}   (we have advanced M)
        # fwd_pred_error = f_{M-1,k}       (we have advanced M)
        # den <- DEN_{M}                   (lhs)
        #

        q = 1.0 - reflect_coeff[0] ** 2
        den[0] = q * den[0] - bwd_pred_error[-1] ** 2 - fwd_pred_error[0] ** 2

        # Shift up forward error.
        #
        # fwd_pred_error <- f_{M-1,k+1}
        # bwd_pred_error <- b_{M-1,k}
        #
        # N.B. We do this after computing the denominator using eqn 17 but
        # before using it in the numerator in eqn 15.
        fwd_pred_error = fwd_pred_error[1:]
        bwd_pred_error = bwd_pred_error[:-1]

    return ar_coeffs


# __dtw_calc_accu_cost: librosa/librosa, librosa/sequence.py @ b7e7bf486353821311f68d756e487f65d09cf319
#   function `__dtw_calc_accu_cost`; licence ISC; Copyright (c) 2013--2023, librosa development team (ISC)
#   changed: the project's annotations replaced by postyp types; Numba decorator removed (it was @jit(nopython=True, cache=True)); no return annotation (it returns a tuple, which postyp cannot spell)
#   original signature: def __dtw_calc_accu_cost(C: np.ndarray, D: np.ndarray, steps: np.ndarray, step_sizes_sigma: np.ndarray, weights_mul: np.ndarray, weights_add: np.ndarray, max_0: int, max_1: int) -> tuple[np.ndarray, np.ndarray]:
def __dtw_calc_accu_cost(
    C: Float64[:, :],
    D: Out[Float64[:, :]],
    steps: Out[Int32[:, :]],
    step_sizes_sigma: Int64[:, :],
    weights_mul: Float64[:],
    weights_add: Float64[:],
    max_0: Int64,
    max_1: Int64,
):  # pragma: no cover
    """Calculate the accumulated cost matrix D.

    Use dynamic programming to calculate the accumulated costs.

    Parameters
    ----------
    C : np.ndarray [shape=(N, M)]
        pre-computed cost matrix
    D : np.ndarray [shape=(N, M)]
        accumulated cost matrix
    steps : np.ndarray [shape=(N, M)]
        Step matrix, containing the indices of the used steps from the cost
        accumulation step.
    step_sizes_sigma : np.ndarray [shape=[n, 2]]
        Specifies allowed step sizes as used by the dtw.
    weights_add : np.ndarray [shape=[n, ]]
        Additive weights to penalize certain step sizes.
    weights_mul : np.ndarray [shape=[n, ]]
        Multiplicative weights to penalize certain step sizes.
    max_0 : int
        maximum number of steps in step_sizes_sigma in dim 0.
    max_1 : int
        maximum number of steps in step_sizes_sigma in dim 1.

    Returns
    -------
    D : np.ndarray [shape=(N, M)]
        accumulated cost matrix.
        D[N, M] is the total alignment cost.
        When doing subsequence DTW, D[N,:] indicates a matching function.
    steps : np.ndarray [shape=(N, M)]
        Step matrix, containing the indices of the used steps from the cost
        accumulation step.

    See Also
    --------
    dtw
    """
    for cur_n in range(max_0, D.shape[0]):
        for cur_m in range(max_1, D.shape[1]):
            # accumulate costs
            for cur_step_idx, cur_w_add, cur_w_mul in zip(  # noqa: B905
                range(step_sizes_sigma.shape[0]), weights_add, weights_mul
                ):
                cur_D = D[
                    cur_n - step_sizes_sigma[cur_step_idx, 0],
                    cur_m - step_sizes_sigma[cur_step_idx, 1],
                ]
                cur_C = cur_w_mul * C[cur_n - max_0, cur_m - max_1]
                cur_C += cur_w_add
                cur_cost = cur_D + cur_C

                # check if cur_cost is smaller than the one stored in D
                if cur_cost < D[cur_n, cur_m]:
                    D[cur_n, cur_m] = cur_cost

                    # save step-index
                    steps[cur_n, cur_m] = cur_step_idx

    return D, steps


# __match_events_helper: librosa/librosa, librosa/util/matching.py @ b7e7bf486353821311f68d756e487f65d09cf319
#   function `__match_events_helper`; licence ISC; Copyright (c) 2013--2023, librosa development team (ISC)
#   changed: the project's annotations replaced by postyp types; Numba decorator removed (it was @numba.jit(nopython=True, cache=True)); result annotated Int32[:], the array it returns (np.empty_like of the Int32 `output`)
#   original signature: def __match_events_helper(output: np.ndarray, events_from: np.ndarray, events_to: np.ndarray, left: bool = True, right: bool = True):
def __match_events_helper(
    output: Out[Int32[:]],
    events_from: Int64[:],
    events_to: Int64[:],
    left: Bool = True,
    right: Bool = True,
) -> Int32[:]:  # pragma: no cover
    # mock dictionary for events
    from_idx = np.argsort(events_from)
    sorted_from = events_from[from_idx]

    to_idx = np.argsort(events_to)
    sorted_to = events_to[to_idx]

    # find the matching indices
    matching_indices = np.searchsorted(sorted_to, sorted_from)

    # iterate over indices in matching_indices
    for ind, middle_ind in enumerate(matching_indices):
        left_flag = False
        right_flag = False

        left_ind = -1
        right_ind = len(matching_indices)

        left_diff = 0
        right_diff = 0
        mid_diff = 0

        middle_ind = matching_indices[ind]
        sorted_from_num = sorted_from[ind]

        # Prevent oob from chosen index
        if middle_ind == len(sorted_to):
            middle_ind -= 1

        # Permitted to look to the left
        if left and middle_ind > 0:
            left_ind = middle_ind - 1
            left_flag = True

        # Permitted to look to right
        if right and middle_ind < len(sorted_to) - 1:
            right_ind = middle_ind + 1
            right_flag = True

        mid_diff = abs(sorted_to[middle_ind] - sorted_from_num)
        if left and left_flag:
            left_diff = abs(sorted_to[left_ind] - sorted_from_num)
        if right and right_flag:
            right_diff = abs(sorted_to[right_ind] - sorted_from_num)

        if left_flag and (
            (not right
            and (sorted_to[middle_ind] > sorted_from_num))
            or (not right_flag and left_diff < mid_diff)
            or (left_diff < right_diff and left_diff < mid_diff)
        ):
            output[ind] = to_idx[left_ind]

        # Check if right should be chosen
        elif right_flag and (right_diff < mid_diff):
            output[ind] = to_idx[right_ind]

        # Selected index wins
        else:
            output[ind] = to_idx[middle_ind]

    # Undo sorting
    solutions = np.empty_like(output)
    solutions[from_idx] = output

    return solutions


# __shear_dense: librosa/librosa, librosa/util/utils.py @ b7e7bf486353821311f68d756e487f65d09cf319
#   function `__shear_dense`; licence ISC; Copyright (c) 2013--2023, librosa development team (ISC)
#   changed: the project's annotations replaced by postyp types; Numba decorator removed (it was @numba.jit(nopython=True, cache=True))
#   original signature: def __shear_dense(X: np.ndarray, *, factor: int = +1, axis: int = -1) -> np.ndarray:
def __shear_dense(X: Float64[:, :], *, factor: Int64 = +1, axis: Int64 = -1) -> Float64[:, :]:
    """Numba-accelerated shear for dense (ndarray) arrays"""
    if axis == 0:
        X = X.T

    X_shear = np.empty_like(X)

    for i in range(X.shape[1]):
        X_shear[:, i] = np.roll(X[:, i], factor * i)

    if axis == 0:
        X_shear = X_shear.T

    return X_shear


# ---- call recipes (not part of the kernels) ----

def args___num_two_factors():
    # __early_downsample_count: __num_two_factors(hop_length), hop_length=512
    return (512,)

def args___o_fold():
    # interval_to_fjs: __o_fold(interval), for an interval above the octave
    return (25 / 7,)

def args___bo_fold():
    return (25 / 14,)

def args___fifth_search():
    # interval_to_fjs(25/14): __fifth_search(interval, tolerance), tolerance=65/63
    return (25 / 14, 65 / 63)

def _hann_sq(n_fft):
    # get_window("hann", n_fft) (periodic), squared, as window_sumsquare computes it
    return (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n_fft) / n_fft)) ** 2

def args___window_ss_fill():
    # window_sumsquare(window="hann", n_frames=10, hop_length=16, n_fft=64,
    # dtype=np.float32): x = np.zeros(n, dtype=dtype), win_sq float64
    n_fft, hop_length, n_frames = 64, 16, 10
    n = n_fft + hop_length * (n_frames - 1)
    x = np.zeros(n, dtype=np.float32)
    return (x, _hann_sq(n_fft), n_frames, hop_length)

def args___overlap_add():
    # istft of a mono signal: y float32 (the output buffer), ytmp the windowed
    # frames, shape (n_fft, n_frames)
    rng = np.random.default_rng(0)
    n_fft, hop_length, n_frames = 64, 16, 10
    y = np.zeros(n_fft + hop_length * (n_frames - 1), dtype=np.float32)
    ytmp = np.sqrt(_hann_sq(n_fft))[:, None] * rng.standard_normal((n_fft, n_frames))
    return (y, ytmp, hop_length)

def args___lpc():
    # lpc(y, order=4) of a mono float64 signal, the arrays set up as lpc does
    rng = np.random.default_rng(1)
    t = np.arange(256)
    y = np.sin(0.05 * t) + 0.3 * np.sin(0.31 * t) + 0.05 * rng.standard_normal(256)
    order = 4
    ar_coeffs = np.zeros(order + 1, dtype=y.dtype)
    ar_coeffs[0] = 1
    ar_coeffs_prev = ar_coeffs.copy()
    reflect_coeff = np.zeros(1, dtype=y.dtype)
    den = reflect_coeff.copy()
    epsilon = np.finfo(den.dtype).tiny  # util.tiny(den)
    return (y, order, ar_coeffs, ar_coeffs_prev, reflect_coeff, den, epsilon)

def args___dtw_calc_accu_cost():
    # dtw(X, Y) with the default steps and weights, C the Euclidean cost matrix
    rng = np.random.default_rng(2)
    X = rng.standard_normal((3, 12))
    Y = rng.standard_normal((3, 15))
    C = np.sqrt(np.sum((X[:, :, None] - Y[:, None, :]) ** 2, axis=0))
    step_sizes_sigma = np.array([[1, 1], [0, 1], [1, 0]])
    weights_add = np.zeros(len(step_sizes_sigma), dtype=np.float64)
    weights_mul = np.ones(len(step_sizes_sigma), dtype=np.float64)
    max_0 = step_sizes_sigma[:, 0].max()
    max_1 = step_sizes_sigma[:, 1].max()
    D = np.ones(C.shape + np.array([max_0, max_1])) * np.inf
    D[max_0, max_1] = C[0, 0]
    steps = np.zeros(D.shape, dtype=np.int32)
    steps[0, :] = 1
    steps[:, 0] = 2
    return (C, D, steps, step_sizes_sigma, weights_mul, weights_add, max_0, max_1)

def args___match_events_helper():
    # match_events(s_from, s_to), the example of its docstring
    events_from = np.arange(0, 100, 7)
    events_to = np.arange(0, 100, 10)
    output = np.empty_like(events_from, dtype=np.int32)
    return (output, events_from, events_to, True, True)

def args___shear_dense():
    # shear(X) with its defaults factor=1, axis=-1 (the recipe passes
    # arguments by position only, so the keyword-only ones keep their defaults)
    rng = np.random.default_rng(3)
    return (rng.standard_normal((4, 6)),)
