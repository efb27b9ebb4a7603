"""Kernels of UMAP (https://github.com/lmcinnes/umap), BSD 3-Clause licence,
Copyright (c) 2017, Leland McInnes."""
import numpy as np

from postyp import Float32, Float64, Int64, Out


# sign: lmcinnes/umap, umap/distances.py @ e82ed0d457b566b043ef44f4007a7149b0daca74
#   function `sign`; licence BSD-3-Clause; Copyright (c) 2017, Leland McInnes (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def sign(a):
def sign(a: Float64) -> Int64:
    if a < 0:
        return -1
    else:
        return 1


# softmax: lmcinnes/umap, umap/distances.py @ e82ed0d457b566b043ef44f4007a7149b0daca74
#   function `softmax`; licence BSD-3-Clause; Copyright (c) 2017, Leland McInnes (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def softmax(z):
def softmax(z: Float64[:]) -> Float64[:]:
    n = z.shape[0]
    out = np.empty(n)

    zmax = z[0]
    for i in range(1, n):
        if z[i] > zmax:
            zmax = z[i]

    s = 0.0
    for i in range(n):
        out[i] = np.exp(z[i] - zmax)
        s += out[i]

    if s == 0.0:
        for i in range(n):
            out[i] = 1.0 / n
    else:
        invs = 1.0 / s
        for i in range(n):
            out[i] *= invs

    return out


# euclidean: lmcinnes/umap, umap/distances.py @ e82ed0d457b566b043ef44f4007a7149b0daca74
#   function `euclidean`; licence BSD-3-Clause; Copyright (c) 2017, Leland McInnes (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def euclidean(x, y):
def euclidean(x: Float64[:], y: Float64[:]) -> Float64:
    r"""Standard euclidean distance.

    ..math::
        D(x, y) = \sqrt{\sum_i (x_i - y_i)^2}
    """
    result = 0.0
    for i in range(x.shape[0]):
        result += (x[i] - y[i]) ** 2
    return np.sqrt(result)


# hamming: lmcinnes/umap, umap/distances.py @ e82ed0d457b566b043ef44f4007a7149b0daca74
#   function `hamming`; licence BSD-3-Clause; Copyright (c) 2017, Leland McInnes (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def hamming(x, y):
def hamming(x: Float64[:], y: Float64[:]) -> Float64:
    result = 0.0
    for i in range(x.shape[0]):
        if x[i] != y[i]:
            result += 1.0

    return float(result) / x.shape[0]


# canberra: lmcinnes/umap, umap/distances.py @ e82ed0d457b566b043ef44f4007a7149b0daca74
#   function `canberra`; licence BSD-3-Clause; Copyright (c) 2017, Leland McInnes (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def canberra(x, y):
def canberra(x: Float64[:], y: Float64[:]) -> Float64:
    result = 0.0
    for i in range(x.shape[0]):
        denominator = np.abs(x[i]) + np.abs(y[i])
        if denominator > 0:
            result += np.abs(x[i] - y[i]) / denominator

    return result


# bray_curtis: lmcinnes/umap, umap/distances.py @ e82ed0d457b566b043ef44f4007a7149b0daca74
#   function `bray_curtis`; licence BSD-3-Clause; Copyright (c) 2017, Leland McInnes (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def bray_curtis(x, y):
def bray_curtis(x: Float64[:], y: Float64[:]) -> Float64:
    numerator = 0.0
    denominator = 0.0
    for i in range(x.shape[0]):
        numerator += np.abs(x[i] - y[i])
        denominator += np.abs(x[i] + y[i])

    if denominator > 0.0:
        return float(numerator) / denominator
    else:
        return 0.0


# jaccard: lmcinnes/umap, umap/distances.py @ e82ed0d457b566b043ef44f4007a7149b0daca74
#   function `jaccard`; licence BSD-3-Clause; Copyright (c) 2017, Leland McInnes (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def jaccard(x, y):
def jaccard(x: Float64[:], y: Float64[:]) -> Float64:
    num_non_zero = 0.0
    num_equal = 0.0
    for i in range(x.shape[0]):
        x_true = x[i] != 0
        y_true = y[i] != 0
        num_non_zero += x_true or y_true
        num_equal += x_true and y_true

    if num_non_zero == 0.0:
        return 0.0
    else:
        return float(num_non_zero - num_equal) / num_non_zero


# haversine: lmcinnes/umap, umap/distances.py @ e82ed0d457b566b043ef44f4007a7149b0daca74
#   function `haversine`; licence BSD-3-Clause; Copyright (c) 2017, Leland McInnes (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def haversine(x, y):
def haversine(x: Float64[:], y: Float64[:]) -> Float64:
    if x.shape[0] != 2:
        raise ValueError("haversine is only defined for 2 dimensional data")
    sin_lat = np.sin(0.5 * (x[0] - y[0]))
    sin_long = np.sin(0.5 * (x[1] - y[1]))
    result = np.sqrt(sin_lat**2 + np.cos(x[0]) * np.cos(y[0]) * sin_long**2)
    return 2.0 * np.arcsin(result)


# clip: lmcinnes/umap, umap/layouts.py @ e82ed0d457b566b043ef44f4007a7149b0daca74
#   function `clip`; licence BSD-3-Clause; Copyright (c) 2017, Leland McInnes (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def clip(val):
def clip(val: Float64) -> Float64:
    """Standard clamping of a value into a fixed range (in this case -4.0 to
    4.0)

    Parameters
    ----------
    val: float
        The value to be clamped.

    Returns
    -------
    The clamped value, now fixed to be in the range -4.0 to 4.0.
    """
    if val > 4.0:
        return 4.0
    elif val < -4.0:
        return -4.0
    else:
        return val


# rdist: lmcinnes/umap, umap/layouts.py @ e82ed0d457b566b043ef44f4007a7149b0daca74
#   function `rdist`; licence BSD-3-Clause; Copyright (c) 2017, Leland McInnes (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed (its signature "f4(f4[::1],f4[::1])" spelled as postyp types)
#   original signature: def rdist(x, y):
def rdist(x: Float32[::1], y: Float32[::1]) -> Float32:
    """Reduced Euclidean distance.

    Parameters
    ----------
    x: array of shape (embedding_dim,)
    y: array of shape (embedding_dim,)

    Returns
    -------
    The squared euclidean distance between x and y
    """
    result = 0.0
    dim = x.shape[0]
    for i in range(dim):
        diff = x[i] - y[i]
        result += diff * diff

    return result


# tau_rand_int: lmcinnes/umap, umap/utils.py @ e82ed0d457b566b043ef44f4007a7149b0daca74
#   function `tau_rand_int`; licence BSD-3-Clause; Copyright (c) 2017, Leland McInnes (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed (Numba's signature "i4(i8[:])"; the result annotated Int64, the type of the value computed)
#   original signature: def tau_rand_int(state):
def tau_rand_int(state: Out[Int64[:]]) -> Int64:
    """A fast (pseudo)-random number generator.

    Parameters
    ----------
    state: array of int64, shape (3,)
        The internal state of the rng

    Returns
    -------
    A (pseudo)-random int32 value
    """
    state[0] = (((state[0] & 4294967294) << 12) & 0xFFFFFFFF) ^ (
        (((state[0] << 13) & 0xFFFFFFFF) ^ state[0]) >> 19
    )
    state[1] = (((state[1] & 4294967288) << 4) & 0xFFFFFFFF) ^ (
        (((state[1] << 2) & 0xFFFFFFFF) ^ state[1]) >> 25
    )
    state[2] = (((state[2] & 4294967280) << 17) & 0xFFFFFFFF) ^ (
        (((state[2] << 3) & 0xFFFFFFFF) ^ state[2]) >> 11
    )

    return state[0] ^ state[1] ^ state[2]


# norm: lmcinnes/umap, umap/utils.py @ e82ed0d457b566b043ef44f4007a7149b0daca74
#   function `norm`; licence BSD-3-Clause; Copyright (c) 2017, Leland McInnes (BSD 3-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def norm(vec):
def norm(vec: Float64[:]) -> Float64:
    """Compute the (standard l2) norm of a vector.

    Parameters
    ----------
    vec: array of shape (dim,)

    Returns
    -------
    The l2 norm of vec.
    """
    result = 0.0
    for i in range(vec.shape[0]):
        result += vec[i] ** 2
    return np.sqrt(result)


# ---- call recipes (not part of the kernels) ----

def _xy(seed, binary=False, ints=False):
    rng = np.random.default_rng(seed)
    if binary:
        return ((rng.random(30) < 0.4).astype(np.float64), (rng.random(30) < 0.5).astype(np.float64))
    if ints:
        return (rng.integers(0, 3, 30).astype(np.float64), rng.integers(0, 3, 30).astype(np.float64))
    return (rng.standard_normal(30), rng.standard_normal(30))

def args_sign():
    return (-2.5,)

def args_softmax():
    return (np.random.default_rng(0).standard_normal(20),)

def args_euclidean():
    return _xy(1)

def args_hamming():
    return _xy(2, ints=True)

def args_canberra():
    return _xy(3)

def args_bray_curtis():
    return _xy(4)

def args_jaccard():
    return _xy(5, binary=True)

def args_haversine():
    return (np.array([0.5, 1.0]), np.array([-0.3, 2.0]))

def args_clip():
    return (5.3,)

def args_rdist():
    rng = np.random.default_rng(6)
    return (rng.standard_normal(2).astype(np.float32), rng.standard_normal(2).astype(np.float32))

def args_tau_rand_int():
    return (np.random.default_rng(7).integers(-2147483647, 2147483646, 3).astype(np.int64),)

def args_norm():
    return (np.random.default_rng(8).standard_normal(10),)
