"""Functions over every kind of parameter, for the package's tests."""
from postyp import (Bool, Int8, Int16, Int32, Int64, UInt8, UInt64, Float16, Float32, Float64,
                    Complex64, Complex128, Str, Bytes, Out)
from postc import empty


def add_i64(a: Int64, b: Int64) -> Int64:
    return a + b


def mix(flag: Bool, i: Int16, u: UInt8, x: Float32) -> Float64:
    """flag, i, u and x in one number."""
    s = Float64(x) + Float64(i) * 10.0 + Float64(u) * 1000.0
    if flag:
        return -s
    return s


def narrow(a: Int8, b: UInt64) -> UInt64:
    return UInt64(a + Int8(1)) + b


def half(x: Float16) -> Float16:
    return x * Float16(2.0)


def cmul(a: Complex128, b: Complex128) -> Complex128:
    return a * b


def cscale(a: Complex64, f: Float32) -> Complex64:
    return a * Complex64(f)


def greet(name: Str) -> Str:
    return "Hello, " + name + "!"


def blen(b: Bytes) -> Int64:
    return len(b)


def total(x: Float64[:]) -> Float64:
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s


def weighted(a: Float64[:, :]) -> Float64:
    """sum of a[i, j] * (10 i + j)."""
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * Float64(10 * i + j)
    return s


def weighted_f(a: Float64[::1, :]) -> Float64:
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * Float64(10 * i + j)
    return s


def trace3(m: Float64[3, 3]) -> Float64:
    return m[0, 0] + m[1, 1] + m[2, 2]


def scale(x: Out[Float32[:]], f: Float32) -> None:
    for i in range(len(x)):
        x[i] = x[i] * f


def count_true(m: Bool[:]) -> Int64:
    n = 0
    for i in range(len(m)):
        if m[i]:
            n += 1
    return n


def int32_sum(x: Int32[:]) -> Int64:
    s = 0
    for i in range(len(x)):
        s += Int64(x[i])
    return s


def cumsum(x: Float64[:]) -> Float64[:]:
    out = empty(len(x), Float64)
    s = 0.0
    for i in range(len(x)):
        s += x[i]
        out[i] = s
    return out


def get(x: Float64[:], i: Int64) -> Float64:
    return x[i]


def floordiv(a: Int64, b: Int64) -> Int64:
    return a // b


def mod(a: Int64, b: Int64) -> Int64:
    return a % b


def square(a: Int64) -> Int64:
    return a * a


def checked(n: Int64) -> Int64:
    assert n > 0, "n must be positive"
    return n


def steps(n: Int64, step: Int64) -> Int64:
    c = 0
    for i in range(0, n, step):
        c += 1
    return c


def scratch_then_get(n: Int64, i: Int64) -> Float64:
    """A scratch array of n elements from the arena, then element i."""
    a = empty(n, Float64)
    for k in range(n):
        a[k] = Float64(k)
    return a[i]


def isum(x: Int64[:]) -> Int64:
    s = 0
    for i in range(len(x)):
        s += x[i]
    return s


def as_f16(x: Float16) -> Float16:
    return x


def as_f32(x: Float32) -> Float32:
    return x


def as_f64(x: Float64) -> Float64:
    return x


def as_c64(z: Complex64) -> Complex64:
    return z


def as_c128(z: Complex128) -> Complex128:
    return z


def same_f64(x: Float64[:]) -> Float64[:]:
    return x


def fill_upto(x: Out[Float64[:]], n: Int64) -> None:
    """x[i] = i + 1 for i < n: past the end, an IndexError after the
    writes before it."""
    for i in range(n):
        x[i] = Float64(i + 1)


def only_two(n: Int64) -> Int64:
    """Raises the built-in exceptions, as CPython does."""
    if n == 0:
        raise NotImplementedError
    if n != 2:
        raise ValueError("only defined for 2 dimensional data")
    return n


from numpy.linalg import det  # noqa: E402 (after the functions whose lines the tests name)


def determinant(a: Float64[:, :]) -> Float64:
    return det(a)


def last_index(n: Int64) -> Int64:
    """The loop's name after the loop: unbound when it did not run."""
    for i in range(n):
        pass
    return i
