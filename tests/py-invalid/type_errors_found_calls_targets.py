# error: calls the lowering refuses by what they call are the typecheck's: keywords and * arguments of NumPy's functions of scalars, its dtypes and empty, arguments of conjugate, functions of NumPy's submodules, values called, and round of a NumPy number to decimals np.round refuses
import numpy as np
from numpy import sqrt
import postc
from postc import empty
from postyp import Complex128, Float32, Float64, Int64


def f(x: Float64, z: Complex128, k: Int64, y: Float32) -> Float64:
    a = np.sqrt(x, out=1)
    b = sqrt(x, out=1)
    c = np.float64(x, k=1)
    d = np.float64(*[x])
    e = empty(3, Float64, k=1)
    g = postc.empty(3, Float64, k=1)
    h = np.maximum(x, x, out=None)
    i = z.conjugate(1)
    j = z.conjugate(a=1)
    m = x.conj(*[1])
    n = np.linalg.conj(x)
    o = np.random.rand(3)
    p = np.fft.fft(x)
    q = np.linalg.foo(x)
    r = (x + 1)(2)
    s = (x, x)(0)
    t = round(x, 1000)
    u = round(k, -1)
    v = round(y, -400)
    w = np.random.default_rng(1).random(3)
    return x
