"""Local variable typing: annotated locals, locals whose later assignments
widen along the numeric tower (Bool < Int < Float < Complex), and NEP 50
literals that take the other operand's dtype."""
from postyp import Bool, Int32, Int64, Float32, Float64, Complex128


def int_then_float(n: Int64) -> Float64:
    """t starts as an int and becomes a float: the local is Float64."""
    t = 0
    for i in range(n):
        t = t + i
    t = t / 2
    return t


def halves(n: Int64) -> Float64:
    """x = 1 (int), then x = x * 0.5 repeatedly (float)."""
    x = 1
    for i in range(n):
        x = x * 0.5
    return x


def bool_then_int(a: Bool, b: Bool) -> Int64:
    """c holds a Bool, then an Int64 count."""
    c = a
    c = Int64(c) + Int64(b)
    return c


def float_then_complex(x: Float64) -> Complex128:
    """z is a float, then a complex."""
    z = x
    z = z + complex(0.0, 1.0)
    return z


def annotated(n: Int64) -> Float64:
    """Explicitly typed locals."""
    acc: Float64 = 0.0
    k: Int64 = 0
    while k < n:
        acc += 0.25
        k += 1
    return acc


def annotated32(x: Float32[:]) -> Float32:
    """An annotated Float32 local initialized from a cast."""
    best: Float32 = Float32(-1.0)
    for i in range(len(x)):
        if x[i] > best:
            best = x[i]
    return best


def literal_keeps_f32(x: Float32) -> Float32:
    """x * 2.0 + 1.0 stays Float32 (NEP 50)."""
    return x * 2.0 + 1.0


def literal_keeps_i32(x: Int32) -> Int32:
    """x * 3 - 7 stays Int32."""
    return x * 3 - 7


def mixed_promotion(a: Int32, b: Float32) -> Float64:
    """Int32 * Float32 is Float64 (NumPy promotion of two dtypes)."""
    return a * b


def int32_plus_int64(a: Int32, b: Int64) -> Int64:
    """Int32 + Int64 is Int64."""
    return a + b


def f32_plus_f64(a: Float32, b: Float64) -> Float64:
    """Float32 + Float64 is Float64."""
    return a + b


def power_int(base: Int64, e: Int64) -> Int64:
    """Integer ** with a non-negative exponent."""
    return base ** e


def power_float(x: Float64, y: Float64) -> Float64:
    """Float ** (libm pow: tolerance)."""
    return x ** y


def power_f32(x: Float32) -> Float32:
    """Float32 ** 2.0 stays Float32."""
    return x ** 2.0


def int_pow_loop(b: Int64, n: Int64) -> Int64:
    """b**n by repeated squaring written out, checked against **."""
    r = 1
    p = b
    e = n
    while e > 0:
        if e & 1:
            r *= p
        e >>= 1
        if e > 0:
            p *= p
    assert r == b ** n, "power mismatch"
    return r
