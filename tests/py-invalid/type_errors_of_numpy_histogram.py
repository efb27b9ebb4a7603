# error: the calls of `np.histogram` compiled code refuses (keywords it does not take, arguments given twice, no data, a density or weights, data of dtypes it does not take, ranges that are not two real numbers, bins neither an integer nor an array of real edges of one axis, equal bins whose edges' dtype depends on the values) are the typecheck's: all reported, those in the blocks of refused statements too, with no echo of the calls they refuse
import numpy as np
from postyp import Bool, Complex128, Float32, Float64, Int8, Int64


def histograms(a: Float64[:], k: Bool[:], z: Complex128[:], m: Float64[:, :], x: Float64, n: Int64, f: Float32[:], g: Float32) -> Int64:
    h0, e0 = np.histogram(a, 10, bins=5)
    h1, e1 = np.histogram(a, cumulative=True)
    h2, e2 = np.histogram(bins=5)
    h3, e3 = np.histogram(a, density=True)
    h4, e4 = np.histogram(a, weights=a)
    h5, e5 = np.histogram(k)
    h6, e6 = np.histogram(z)
    h7, e7 = np.histogram(a, range=(0.0, 1.0, 2.0))
    h8, e8 = np.histogram(a, range=x)
    h9, e9 = np.histogram(a, bins=x)
    h10, e10 = np.histogram(a, bins=m)
    h11, e11 = np.histogram(a, bins=z)
    h12, e12 = np.histogram(f, n, range=(Int8(0), Int8(5)))
    with open("f") as w:
        h13, e13 = np.histogram(a, bins=1.5)
    return h0[0] + h1[0] + h2[0] + h3[0] + h4[0] + h5[0] + h6[0] + h7[0] + h8[0] + h9[0] + h10[0] + h11[0] + h12[0]
