"""Signatures around the register limits (six integer-class and eight
floating-point arguments), for the call path tests."""
from postyp import Int8, Int64, UInt16, Float16, Float32, Float64, Complex128, Str, Out
from postc import empty


def six_ints(a: Int64, b: Int64, c: Int64, d: Int64, e: Int64, f: Int64) -> Int64:
    return a + 10 * b + 100 * c + 1000 * d + 10000 * e + 100000 * f


def seven_ints(a: Int64, b: Int64, c: Int64, d: Int64, e: Int64, f: Int64, g: Int64) -> Int64:
    return a + 10 * b + 100 * c + 1000 * d + 10000 * e + 100000 * f + 1000000 * g


def eight_floats(a: Float64, b: Float32, c: Float64, d: Float16, e: Float64, f: Float64, g: Float64,
                 h: Float64) -> Float64:
    return a + 2.0 * Float64(b) + 4.0 * c + 8.0 * Float64(d) + 16.0 * e + 32.0 * f + 64.0 * g + 128.0 * h


def nine_floats(a: Float64, b: Float64, c: Float64, d: Float64, e: Float64, f: Float64, g: Float64,
                h: Float64, i: Float64) -> Float64:
    return a + 2.0 * b + 4.0 * c + 8.0 * d + 16.0 * e + 32.0 * f + 64.0 * g + 128.0 * h + 256.0 * i


def interleaved(a: Int8, x: Float32, b: UInt16, y: Float64, s: Str) -> Float64:
    return Float64(a) + Float64(x) * 10.0 + Float64(b) * 100.0 + y * 1000.0 + Float64(len(s)) * 10000.0


def complex_past_the_registers(z: Complex128, a: Int64, b: Int64, c: Int64, d: Int64, e: Int64) -> Complex128:
    return z * Complex128(Float64(a + b + c + d + e))


def five_arrays(a: Float64[:], b: Float64[:], c: Float64[:], d: Float64[:], out: Out[Float64[:]]) -> Float64[:]:
    for i in range(len(out)):
        out[i] = a[i] + 10.0 * b[i] + 100.0 * c[i] + 1000.0 * d[i]
    return out


def corner5(a: Float64[:, :, :, :, :]) -> Float64:
    return a[0, 0, 0, 0, 0] + a[1, 1, 1, 1, 1]


def seven_then_get(x: Float64[:], a: Int64, b: Int64, c: Int64, d: Int64, e: Int64, i: Int64) -> Float64:
    return x[i] + Float64(a + b + c + d + e)


def fresh(n: Int64, a: Int64, b: Int64, c: Int64, d: Int64, e: Int64, f: Int64) -> Float64[:]:
    out = empty(n, Float64)
    for i in range(n):
        out[i] = Float64(a + b + c + d + e + f)
    return out
