"""Convolutions and filters: 1-D valid convolution, a moving average, a
3x3 box blur of an Int32 image into Float64, and a separable Float32 blur
through a scratch row."""
from postyp import Float32, Float64, Int32, Int64, Out
from postc import empty


def convolve_valid(x: Float64[:], k: Float64[:], out: Out[Float64[:]]) -> None:
    """out[i] = sum_j x[i + j] * k[m - 1 - j], len(out) = n - m + 1."""
    m = len(k)
    for i in range(len(out)):
        s = 0.0
        for j in range(m):
            s += x[i + j] * k[m - 1 - j]
        out[i] = s


def moving_average(x: Float64[:], w: Int64, out: Out[Float64[:]]) -> None:
    """Trailing mean over w samples (fewer at the start)."""
    s = 0.0
    for i in range(len(x)):
        s += x[i]
        if i >= w:
            s -= x[i - w]
        cnt = min(i + 1, w)
        out[i] = s / cnt


def box_blur(img: Int32[:, :], out: Out[Float64[:, :]]) -> None:
    """Mean of the 3x3 neighbourhood clipped to the image (int sum / count)."""
    h = img.shape[0]
    w = img.shape[1]
    for i in range(h):
        for j in range(w):
            s = 0
            c = 0
            for di in range(-1, 2):
                for dj in range(-1, 2):
                    y = i + di
                    x = j + dj
                    if 0 <= y < h and 0 <= x < w:
                        s += Int64(img[y, x])
                        c += 1
            out[i, j] = s / c


def blur_rows32(img: Float32[:, :], out: Out[Float32[:, :]]) -> None:
    """[1 2 1] / 4 along each row with clamped edges, through a scratch
    row made with empty()."""
    h = img.shape[0]
    w = img.shape[1]
    row = empty(w, Float32)
    for i in range(h):
        for j in range(w):
            row[j] = img[i, j]
        for j in range(w):
            l = row[max(j - 1, 0)]
            r = row[min(j + 1, w - 1)]
            out[i, j] = (l + row[j] * 2.0 + r) * 0.25
