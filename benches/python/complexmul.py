"""Complex products and magnitudes in hot loops: what `legalize` writes
out as `postc.py.cmul` calls and `hypot` of the parts. `main` returns a
checksum. `scripts/bench-intdiv --source benches/python/complexmul.py`
runs it."""
from postyp import Complex64, Complex128, Float32, Float64, Int64


def main() -> Int64:
    total = 0
    z = Complex128(0.0)
    m = 0.0
    for i in range(1, 6000000):
        a = complex(Float64(i % 17) + 0.5, Float64(i % 5) - 2.0)
        b = complex(0.999, Float64(i % 3) * 0.001)
        z = z * b + a
        m += abs(a * b)
    total += Int64(z.real) + Int64(z.imag) + Int64(m)
    w = Complex64(0.0)
    m32 = Float32(0.0)
    for i in range(1, 6000000):
        c = Complex64(complex(Float64(i % 11) - 5.0, Float64(i % 7) + 0.25))
        d = Complex64(complex(0.5, -0.25))
        w = w * Complex64(0.5) + c * d
        m32 += abs(c)
    total += Int64(w.real) + Int64(w.imag) + Int64(m32)
    return total % 1000000007
