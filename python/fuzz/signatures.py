"""The signatures the argument fuzzer (arguments.py) calls: array parameters
of several dtypes, ranks (up to five), static extents and layouts, outputs,
returned arrays, and scalar parameters of every kind. The fuzzer compiles
this module once and also imports it as plain Python, the oracle.

Each function reads every element it is given, so a wrong extent or stride
reads memory the array does not own, and returns a number in which every
element counts with a weight of its place, so a layout read wrong gives
another result. Elements are small integers: sums in any dtype are exact,
and compiled code and CPython agree to the bit."""
from postyp import (Bool, Int8, Int16, Int32, Int64, UInt8, UInt64, Float16, Float32, Float64,
                    Complex64, Complex128, Str, Bytes, Out)
from postc import empty


def sum_f64(x: Float64[:]) -> Float64:
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * Float64(i + 1)
    return s


def sum_f32_2(a: Float32[:, :]) -> Float64:
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += Float64(a[i, j]) * Float64(7 * i + j + 1)
    return s


def sum_f16(x: Float16[:]) -> Float64:
    s = 0.0
    for i in range(x.shape[0]):
        s += Float64(x[i]) * Float64(i + 3)
    return s


def sum_i16_3(a: Int16[:, :, :]) -> Int64:
    s = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                s += Int64(a[i, j, k]) * Int64(49 * i + 7 * j + k + 1)
    return s


def sum_u8(x: UInt8[:]) -> Int64:
    s = 0
    for i in range(x.shape[0]):
        s += Int64(x[i]) * Int64(i + 1)
    return s


def count_bool_2(m: Bool[:, :]) -> Int64:
    n = 0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j]:
                n += 7 * i + j + 1
    return n


def sum_c128(z: Complex128[:]) -> Complex128:
    s = Complex128(0)
    for i in range(z.shape[0]):
        s += z[i] * Complex128(Float64(i + 1))
    return s


def sum_c64_2(z: Complex64[:, :]) -> Complex128:
    s = Complex128(0)
    for i in range(z.shape[0]):
        for j in range(z.shape[1]):
            s += Complex128(z[i, j]) * Complex128(Float64(7 * i + j + 1))
    return s


def sum_fortran(a: Float64[::1, :]) -> Float64:
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * Float64(7 * i + j + 1)
    return s


def static_3x3(m: Float64[3, 3]) -> Float64:
    s = 0.0
    for i in range(3):
        for j in range(3):
            s += m[i, j] * Float64(3 * i + j + 1)
    return s


def static_i32_2x4(a: Int32[2, 4]) -> Int64:
    s = 0
    for i in range(2):
        for j in range(4):
            s += Int64(a[i, j]) * Int64(4 * i + j + 1)
    return s


def sum_i64_5(a: Int64[:, :, :, :, :]) -> Int64:
    s = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                for l in range(a.shape[3]):
                    for m in range(a.shape[4]):
                        s += a[i, j, k, l, m] * Int64(((((i * 5 + j) * 5 + k) * 5 + l) * 5 + m) + 1)
    return s


def scale_out(x: Out[Float32[:]], f: Float32) -> None:
    for i in range(x.shape[0]):
        x[i] = x[i] * f + Float32(i)


def add_out_2(a: Out[Int64[:, :]], v: Int8) -> None:
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] = a[i, j] + Int64(v) * Int64(7 * i + j + 1)


def axpy(a: Float64, x: Float64[:], y: Out[Float64[:]]) -> None:
    for i in range(min(x.shape[0], y.shape[0])):
        y[i] = y[i] + a * x[i]


def shift_c64_out(z: Out[Complex64[:]], w: Complex64) -> None:
    for i in range(z.shape[0]):
        z[i] = z[i] + w


def half_out_2(h: Out[Float16[:, :]], f: Float16) -> None:
    for i in range(h.shape[0]):
        for j in range(h.shape[1]):
            h[i, j] = h[i, j] + f


def same_2(a: Float64[:, :]) -> Float64[:, :]:
    return a


def prefix_i32(x: Int32[:]) -> Int64[:]:
    out = empty(x.shape[0], Int64)
    s = 0
    for i in range(x.shape[0]):
        s += Int64(x[i])
        out[i] = s * Int64(i + 1)
    return out


def five_arrays(a: Float64[:], b: Float32[:], c: Int64[:], d: UInt8[:], e: Bool[:]) -> Float64:
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * Float64(i + 1)
    for i in range(b.shape[0]):
        s += Float64(b[i]) * Float64(i + 11)
    for i in range(c.shape[0]):
        s += Float64(c[i]) * Float64(i + 21)
    for i in range(d.shape[0]):
        s += Float64(d[i]) * Float64(i + 31)
    for i in range(e.shape[0]):
        if e[i]:
            s += Float64(i + 41)
    return s


def seven_args(a: Float64[:], b: Float64[:], c: Float64[:], d: Float64[:], e: Float64[:], f: Float64[:],
               g: Int64) -> Float64:
    return sum_f64(a) + 2.0 * sum_f64(b) + 3.0 * sum_f64(c) + 4.0 * sum_f64(d) + 5.0 * sum_f64(e) \
        + 6.0 * sum_f64(f) + Float64(g)


def text_len(s: Str, b: Bytes) -> Int64:
    return Int64(len(s)) * 1000 + Int64(len(b))


def as_bool(x: Bool) -> Bool:
    return x


def as_i8(x: Int8) -> Int8:
    return x


def as_u64(x: UInt64) -> UInt64:
    return x


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
