"""Complex arithmetic in Complex128 and Complex64: products, conjugates,
parts, magnitudes, polynomial evaluation and Mandelbrot escape counts."""
from postyp import Complex64, Complex128, Float32, Float64, Int64, Bool


def cmul(a: Complex128, b: Complex128) -> Complex128:
    """Complex product."""
    return a * b


def cmul64(a: Complex64, b: Complex64) -> Complex64:
    """Complex64 product."""
    return a * b


def make(re: Float64, im: Float64) -> Complex128:
    """complex(re, im)."""
    return complex(re, im)


def conj_prod(z: Complex128) -> Float64:
    """(z * conj(z)).real = |z|**2."""
    w = z * z.conjugate()
    return w.real


def parts_swap(z: complex) -> complex:
    """i * conj(z) computed from the parts: swaps re and im."""
    return complex(z.imag, z.real)


def mag(z: Complex128) -> Float64:
    """abs(z) of a Complex128."""
    return abs(z)


def mag64(z: Complex64) -> Float32:
    """abs(z) of a Complex64 is Float32."""
    return abs(z)


def poly_eval(c: Complex128[:], z: Complex128) -> Complex128:
    """Horner evaluation of sum c[k] z**k."""
    n = len(c)
    acc = c[n - 1]
    for k in range(n - 2, -1, -1):
        acc = acc * z + c[k]
    return acc


def sum64(a: Complex64[:]) -> Complex64:
    """Complex64 sum."""
    s = Complex64(0.0)
    for i in range(len(a)):
        s += a[i]
    return s


def mandel(c: Complex128, limit: Int64) -> Int64:
    """Iterations of z = z*z + c before |z|**2 > 4, at most limit."""
    z = Complex128(0.0)
    n = 0
    while n < limit:
        if z.real * z.real + z.imag * z.imag > 4.0:
            break
        z = z * z + c
        n += 1
    return n


def is_real(z: Complex128) -> Bool:
    """z.imag == 0 and z == z.conjugate()."""
    return z.imag == 0.0 and z == z.conjugate()


def rotate(z: Complex64, quarter_turns: Int64) -> Complex64:
    """Multiply by i the given number of times (mod 4)."""
    r = z
    for k in range(quarter_turns % 4):
        r = Complex64(complex(-r.imag, r.real))
    return r


def widen(z: Complex64) -> Complex128:
    """Complex64 -> Complex128 (exact)."""
    return Complex128(z)


def conj_product(z: Complex128, w: Complex64) -> Complex128:
    """`.conj()`, NumPy's and Numba's spelling of `.conjugate()`."""
    return z.conj() * w + w.conj()
