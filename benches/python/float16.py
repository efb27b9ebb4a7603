"""Float16 arithmetic, Float32 powers and the true division of integers in
hot loops: what `legalize` writes out of them (the Float16 arithmetic for
the backends without it: QBE, wasm). `main` returns a checksum.
`scripts/bench-intdiv --source benches/python/float16.py` runs it."""
from postyp import Float16, Float32, Int64


def main() -> Int64:
    total = 0
    h = Float16(0.0)
    for i in range(1, 16000000):
        x = Float16(i % 100) * Float16(0.25)
        h = h * Float16(0.5) + x - Float16(1.5)
        if h > Float16(20.0):
            h = -h
    total += Int64(h * Float16(16.0))
    f = Float32(0.0)
    for i in range(1, 8000000):
        f += Float32(i % 7 + 1) ** Float32(0.5)
    total += Int64(f)
    q = 0.0
    for i in range(1, 24000000):
        q += i / (i % 13 + 1)
    total += Int64(q)
    return total % 1000000007
