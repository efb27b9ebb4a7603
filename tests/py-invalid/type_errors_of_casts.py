# error: the type errors of casts (int, float, complex, the dtypes, NumPy's scalar types) and of conjugate are the typecheck's: all reported, with no echo of the calls they refuse
import numpy as np
from postyp import Complex128, Float32, Float64, Int8, Int32, Int64


def casts(x: Float64, z: Complex128, a: Float64[:], t: tuple[Float64, Int64]) -> Float64:
    b = int(x, x)
    c = Int8(300)
    d = Int32(1e400)
    e = float(1j) + 1.0
    g = int("3")
    h = int(z)
    k = Float64(a)
    m = np.float32(a)
    p = float(t)
    q = complex("a", 1.0)
    r = complex(x, a)
    u = Float32(z) + float(z)
    return x


def methods(x: Float64, z: Complex128) -> Float64:
    b = z.conjugate(1)
    c = "s".conjugate()
    d = (x, x).conjugate()
    return x + z.conjugate().real + x.conjugate()
