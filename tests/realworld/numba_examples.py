"""Kernels of the Numba project's examples (https://github.com/numba/numba-examples),
BSD 2-Clause licence, Copyright (c) 2017, Numba."""
import math

import numpy as np

import postc
from postyp import Float64, Int64, Out, UInt8


# bubblesort: numba/numba-examples, legacy/bubblesort.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `bubblesort`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; `jit(nopython=True)(bubblesort)` not applied
#   original signature: def bubblesort(X):
def bubblesort(X: Out[Int64[:]]) -> None:
    N = X.shape[0]
    for end in range(N, 1, -1):
        for i in range(end - 1):
            if X[i] > X[i + 1]:
                X[i], X[i + 1] = X[i + 1], X[i]


# mergesort_inplace: numba/numba-examples, legacy/mergesort.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `mergesort_inplace`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def mergesort_inplace(arr):
def mergesort_inplace(arr: Out[Int64[:]]) -> Int64[:]:
    "Inplace mergesort"
    assert arr.ndim == 1

    if arr.size > 2:
        mid = arr.size // 2
        first = arr[:mid]
        second = arr[mid:]
        mergesort_inplace(first)
        mergesort_inplace(second)

        left = 0
        right = mid
        while left < mid and right < arr.size:
            if arr[left] <= arr[right]:
                left += 1
            else:
                temp = arr[right]
                right += 1
                # copy left array to the right by one
                for i in range(mid, left, -1):
                    arr[i] = arr[i - 1]
                arr[left] = temp
                left += 1
                mid += 1
    elif arr.size == 2:
        a, b = arr
        arr[0], arr[1] = ((a, b) if a <= b else (b, a))
    return arr


# move_mean: numba/numba-examples, legacy/movemean.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `move_mean`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; @guvectorize(..., '(n),()->(n)') removed (called on one row)
#   original signature: def move_mean(a, window_arr, out):
def move_mean(a: Float64[:], window_arr: Int64[:], out: Out[Float64[:]]) -> None:
    window_width = window_arr[0]
    asum = 0.0
    count = 0
    for i in range(window_width):
        asum += a[i]
        count += 1
        out[i] = asum / count
    for i in range(window_width, len(a)):
        asum += a[i] - a[i - window_width]
        out[i] = asum / count


# sum2d: numba/numba-examples, legacy/sum.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `sum2d`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; `jit(sum2d)` not applied
#   original signature: def sum2d(arr):
def sum2d(arr: Float64[:, :]) -> Float64:
    M, N = arr.shape
    result = 0.0
    for i in range(M):
        for j in range(N):
            result += arr[i,j]
    return result


# mandel: numba/numba-examples, legacy/mandel/mandel_jit.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `mandel`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def mandel(x, y, max_iters):
def mandel(x: Float64, y: Float64, max_iters: Int64) -> Int64:
    """
    Given the real and imaginary parts of a complex number,
    determine if it is a candidate for membership in the Mandelbrot
    set given a fixed number of iterations.
    """
    i = 0
    c = complex(x,y)
    z = 0.0j
    for i in range(max_iters):
        z = z*z + c
        if (z.real*z.real + z.imag*z.imag) >= 4:
            return i

    return 255


# create_fractal: numba/numba-examples, legacy/mandel/mandel_jit.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `create_fractal`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def create_fractal(min_x, max_x, min_y, max_y, image, iters):
def create_fractal(min_x: Float64, max_x: Float64, min_y: Float64, max_y: Float64,
                   image: Out[UInt8[:, :]], iters: Int64) -> UInt8[:, :]:
    height = image.shape[0]
    width = image.shape[1]

    pixel_size_x = (max_x - min_x) / width
    pixel_size_y = (max_y - min_y) / height
    for x in range(width):
        real = min_x + x * pixel_size_x
        for y in range(height):
            imag = min_y + y * pixel_size_y
            color = mandel(real, imag, iters)
            image[y, x] = color

    return image


# jacobi_relax_core: numba/numba-examples, legacy/laplace2d/laplace2d-numba.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `jacobi_relax_core`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def jacobi_relax_core(A, Anew):
def jacobi_relax_core(A: Float64[:, :], Anew: Out[Float64[:, :]]) -> Float64:
    error = 0.0
    n = A.shape[0]
    m = A.shape[1]
    for j in range(1, n - 1):
        for i in range(1, m - 1):
            Anew[j, i] = 0.25 * ( A[j, i + 1] + A[j, i - 1] \
                                + A[j - 1, i] + A[j + 1, i])
            error = max(error, abs(Anew[j, i] - A[j, i]))
    return error


# cnd_numba: numba/numba-examples, examples/finance/blackscholes/blackscholes_numba.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `cnd_numba`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def cnd_numba(d):
def cnd_numba(d: Float64) -> Float64:
    A1 = 0.31938153
    A2 = -0.356563782
    A3 = 1.781477937
    A4 = -1.821255978
    A5 = 1.330274429
    RSQRT2PI = 0.39894228040143267793994605993438
    K = 1.0 / (1.0 + 0.2316419 * math.fabs(d))
    ret_val = (RSQRT2PI * math.exp(-0.5 * d * d) *
               (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5))))))
    if d > 0:
        ret_val = 1.0 - ret_val
    return ret_val


# black_scholes_numba: numba/numba-examples, examples/finance/blackscholes/blackscholes_numba.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `black_scholes_numba`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed; no return annotation (it returns a tuple, which postyp cannot spell)
#   original signature: def black_scholes_numba(stockPrice, optionStrike, optionYears, Riskfree, Volatility):
def black_scholes_numba(stockPrice: Float64[:], optionStrike: Float64[:],
                        optionYears: Float64[:], Riskfree: Float64, Volatility: Float64):
    callResult = np.empty_like(stockPrice)
    putResult = np.empty_like(stockPrice)

    S = stockPrice
    X = optionStrike
    T = optionYears
    R = Riskfree
    V = Volatility
    for i in range(len(S)):
        sqrtT = math.sqrt(T[i])
        d1 = (math.log(S[i] / X[i]) + (R + 0.5 * V * V) * T[i]) / (V * sqrtT)
        d2 = d1 - V * sqrtT
        cndd1 = cnd_numba(d1)
        cndd2 = cnd_numba(d2)

        expRT = math.exp((-1. * R) * T[i])
        callResult[i] = (S[i] * cndd1 - X[i] * expRT * cndd2)
        putResult[i] = (X[i] * expRT * (1.0 - cndd2) - S[i] * (1.0 - cndd1))

    return callResult, putResult


# filter2d_core: numba/numba-examples, legacy/blur_image.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `filter2d_core`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def filter2d_core(image, filt, result):
def filter2d_core(image: Float64[:, :], filt: Float64[:, :], result: Out[Float64[:, :]]) -> None:
    M, N = image.shape
    Mf, Nf = filt.shape
    Mf2 = Mf // 2
    Nf2 = Nf // 2
    for i in range(Mf2, M - Mf2):
        for j in range(Nf2, N - Nf2):
            num = 0
            for ii in range(Mf):
                for jj in range(Nf):
                    num += (filt[Mf-1-ii, Nf-1-jj] * image[i-Mf2+ii,j-Nf2+jj])
            result[i, j] = num


# fbcorr: numba/numba-examples, legacy/fbcorr.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `fbcorr`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def fbcorr(imgs, filters, output):
def fbcorr(imgs: Float64[:, :, :, :], filters: Float64[:, :, :, :], output: Out[Float64[:, :, :, :]]) -> None:
    n_imgs, n_rows, n_cols, n_channels = imgs.shape
    n_filters, height, width, n_ch2 = filters.shape

    for ii in range(n_imgs):
        for rr in range(n_rows - height + 1):
            for cc in range(n_cols - width + 1):
                for hh in range(height):
                    for ww in range(width):
                        for jj in range(n_channels):
                            for ff in range(n_filters):
                                imgval = imgs[ii, rr + hh, cc + ww, jj]
                                filterval = filters[ff, hh, ww, jj]
                                output[ii, ff, rr, cc] += imgval * filterval


# xsten: numba/numba-examples, legacy/harris/harris_numba.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `xsten`; licence BSD-2-Clause; Copyright (c) 2017 Intel Corporation (SPDX-License-Identifier: BSD-2-Clause, as the file says)
#   changed: type annotations added; Numba decorator removed
#   original signature: def xsten(a):
def xsten(a: Float64[:, :]) -> Float64[:, :]:
    ret = np.zeros_like(a)
    ashape = a.shape
    for i in range(1,ashape[0]-1):
        for j in range(1,ashape[1]-1):
            ret[i,j] = ((a[i-1,j-1] * -1.0) + (a[i-1,j] * -2.0) + (a[i-1,j+1] * -1.0) + a[i+1,j-1] + (a[i+1,j] * 2.0) + a[i+1,j+1]) / 12.0
    return ret


# lj_numba_scalar: numba/numba-examples, examples/physics/lennard_jones/numba_scalar_impl.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `lj_numba_scalar`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def lj_numba_scalar(r):
def lj_numba_scalar(r: Float64) -> Float64:
    sr6 = (1./r)**6
    pot = 4.*(sr6*sr6 - sr6)
    return pot


# distance_numba_scalar: numba/numba-examples, examples/physics/lennard_jones/numba_scalar_impl.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `distance_numba_scalar`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def distance_numba_scalar(atom1, atom2):
def distance_numba_scalar(atom1: Float64[:], atom2: Float64[:]) -> Float64:
    dx = atom2[0] - atom1[0]
    dy = atom2[1] - atom1[1]
    dz = atom2[2] - atom1[2]

    r = (dx * dx + dy * dy + dz * dz) ** 0.5

    return r


# potential_numba_scalar: numba/numba-examples, examples/physics/lennard_jones/numba_scalar_impl.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `potential_numba_scalar`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def potential_numba_scalar(cluster):
def potential_numba_scalar(cluster: Float64[:, :]) -> Float64:
    energy = 0.0
    for i in range(len(cluster)-1):
        for j in range(i + 1, len(cluster)):
            r = distance_numba_scalar(cluster[i], cluster[j])
            e = lj_numba_scalar(r)
            energy += e

    return energy


# numba_zero_suppression: numba/numba-examples, examples/waveforms/zero_suppression/impl.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `numba_zero_suppression`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; @numba.vectorize(nopython=True) replaced by @postc.ufunc
#   original signature: def numba_zero_suppression(values, threshold):
@postc.ufunc
def numba_zero_suppression(values: Float64, threshold: Float64) -> Float64:
    if np.abs(values) >= threshold:
        return values
    else:
        return 0.0


# get_bin_edges: numba/numba-examples, examples/density_estimation/histogram/impl.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `get_bin_edges`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def get_bin_edges(a, bins):
def get_bin_edges(a: Float64[:], bins: Int64) -> Float64[:]:
    bin_edges = np.zeros((bins+1,), dtype=np.float64)
    a_min = a.min()
    a_max = a.max()
    delta = (a_max - a_min) / bins
    for i in range(bin_edges.shape[0]):
        bin_edges[i] = a_min + i * delta

    bin_edges[-1] = a_max  # Avoid roundoff error on last point
    return bin_edges


# compute_bin: numba/numba-examples, examples/density_estimation/histogram/impl.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `compute_bin`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def compute_bin(x, bin_edges): # assuming uniform bins for now
def compute_bin(x: Float64, bin_edges: Float64[:]) -> Int64 | None:
    n = bin_edges.shape[0] - 1
    a_min = bin_edges[0]
    a_max = bin_edges[-1]

    # special case to mirror NumPy behavior for last bin
    if x == a_max:
        return n - 1 # a_max always in last bin

    bin = int(n * (x - a_min) / (a_max - a_min))

    if bin < 0 or bin >= n:
        return None
    else:
        return bin


# gaussian: numba/numba-examples, examples/density_estimation/kernel/impl.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `gaussian`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def gaussian(x):
def gaussian(x: Float64) -> Float64:
    return np.exp(-0.5 * x**2) / np.sqrt(2 * np.pi)


# numba_kde: numba/numba-examples, examples/density_estimation/kernel/impl.py @ c423f5419a459f5ab8874fda6d39bb5ea05d04b2
#   function `numba_kde`; licence BSD-2-Clause; Copyright (c) 2017, Numba (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def numba_kde(eval_points, samples, bandwidths):
def numba_kde(eval_points: Float64[:], samples: Float64[:], bandwidths: Float64[:]) -> Float64[:]:
    result = np.zeros_like(eval_points)

    for i, eval_x in enumerate(eval_points):
        for sample, bandwidth in zip(samples, bandwidths):
            result[i] += gaussian((eval_x - sample) / bandwidth) / bandwidth
        result[i] /= len(samples)

    return result


# ---- call recipes (not part of the kernels) ----

def args_bubblesort():
    return (np.array(list(reversed(range(200))), dtype=np.int64),)

def args_mergesort_inplace():
    return (np.random.default_rng(0).integers(0, 100, 50).astype(np.int64),)

def args_move_mean():
    return (np.arange(10, dtype=np.float64), np.array([3], np.int64), np.zeros(10))

def args_sum2d():
    return (np.random.default_rng(1).standard_normal((100, 100)),)

def args_mandel():
    return (0.3, 0.5, 20)

def args_create_fractal():
    return (-2.0, 1.0, -1.0, 1.0, np.zeros((50, 75), dtype=np.uint8), 20)

def args_jacobi_relax_core():
    A = np.zeros((64, 64))
    A[:, 0] = 1.0
    Anew = A.copy()
    return (A, Anew)

def args_cnd_numba():
    return (0.3,)

def _options():
    rng = np.random.default_rng(2)
    n = 100
    return (rng.uniform(5.0, 30.0, n), rng.uniform(1.0, 100.0, n), rng.uniform(0.25, 10.0, n))

def args_black_scholes_numba():
    S, X, T = _options()
    return (S, X, T, 0.02, 0.30)

def args_filter2d_core():
    image = np.random.default_rng(3).random((32, 32))
    return (image, np.ones((7, 7)), np.zeros((32, 32)))

def args_fbcorr():
    rng = np.random.default_rng(4)
    return (rng.standard_normal((2, 16, 16, 3)), rng.standard_normal((6, 5, 5, 3)), np.zeros((2, 6, 12, 12)))

def args_xsten():
    return (np.random.default_rng(5).random((32, 32)),)

def args_lj_numba_scalar():
    return (1.3,)

def args_distance_numba_scalar():
    return (np.array([0.0, 1.0, 2.0]), np.array([1.5, -0.5, 2.5]))

def args_potential_numba_scalar():
    return (np.random.default_rng(6).random((20, 3)) * 5.0,)

def args_numba_zero_suppression():
    rng = np.random.default_rng(7)
    size = 1000
    x = rng.normal(loc=0.0, scale=5.0, size=size)
    x += 50 * np.clip(np.cos(np.linspace(0.0, 1.0, num=size) * np.pi * 10), 0, 1.0)
    return (x, 8.0)

def args_get_bin_edges():
    return (np.random.default_rng(8).normal(loc=0.0, scale=5.0, size=1000), 10)

def args_compute_bin():
    return (0.37, np.linspace(0.0, 1.0, 11))

def args_gaussian():
    return (0.7,)

def args_numba_kde():
    rng = np.random.default_rng(9)
    samples = rng.normal(loc=0.0, scale=5.0, size=200)
    bandwidths = np.full_like(samples, 1.06 * 200**0.2 * 5.0)
    return (rng.normal(loc=0.0, scale=5.0, size=50), samples, bandwidths)
