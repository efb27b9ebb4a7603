"""Float floor division and modulo, float -> int casts, complex division
and power in hot loops: what `legalize` writes out of Python's float and
complex semantics. `main` returns a checksum.
`scripts/bench-intdiv --source benches/python/floatdiv.py` runs it."""
from postyp import Complex128, Float32, Float64, Int32, Int64


def main() -> Int64:
    total = 0
    acc = 0.0
    # Variable divisors of both signs: the floor adjustment matters.
    for i in range(1, 6000000):
        x = Float64(i) * 0.37 - 1000000.0
        d = Float64((i % 13) - 6) + 0.5
        acc += x // d + x % d
    total += Int64(acc)
    acc32 = Float32(0.0)
    for i in range(1, 4000000):
        acc32 += Float32(i) % Float32(7.25)
    total += Int64(acc32)
    # Saturating float -> int casts.
    for i in range(1, 8000000):
        y = Float64(i) * 1.5e-3 - 3000.0
        total += Int64(y * y) + Int32(y)
    z = Complex128(0.0)
    for i in range(1, 3000000):
        a = complex(Float64(i % 17) + 0.5, Float64(i % 5) - 2.0)
        b = complex(1.25, Float64(i % 3) + 0.75)
        z += a / b + (a * 0.01) ** 3
    total += Int64(z.real) + Int64(z.imag)
    return total % 1000000007
