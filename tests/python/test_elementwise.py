#!/usr/bin/env python3
"""Calls NumPy's inner loop (`NAME_loop`) of every ufunc of a shared library
built from tests/python/elementwise.pir through ctypes, as NumPy would:
over contiguous arrays, over every other element, with the first input
broadcast (step 0) and with no elements; compares each result with NumPy's
own operation on the same arrays.

    python3 tests/python/test_elementwise.py LIB.so

Exit status 0 when every check passes. Run by codegen/tests/abi_python.rs.
"""
import ctypes as C
import sys

import numpy as np

LOOP = C.CFUNCTYPE(None, C.POINTER(C.c_void_p), C.POINTER(C.c_ssize_t), C.POINTER(C.c_ssize_t), C.c_void_p)

# (ufunc, input dtypes, output dtype, NumPy's operation). The values stay
# where no operation overflows (the library may be built with overflow
# checks) and every float sum is exact.
CASES = [
    (f"add_{name}", (dt, dt), dt, np.add)
    for name, dt in [
        ("i8", np.int8), ("u8", np.uint8), ("i16", np.int16), ("u16", np.uint16),
        ("i32", np.int32), ("u32", np.uint32), ("i64", np.int64), ("u64", np.uint64),
        ("f16", np.float16), ("f32", np.float32), ("f64", np.float64),
        ("c64", np.complex64), ("c128", np.complex128),
    ]
] + [
    ("xor_b", (np.bool_, np.bool_), np.bool_, np.not_equal),
    ("less", (np.float64, np.int32), np.bool_, lambda a, b: a < b),
]


def values(dtype, n, seed):
    """n values of `dtype` in [0, 50), with an imaginary part for complex."""
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, n).astype(np.bool_)
    x = rng.integers(0, 50, n)
    if np.issubdtype(dtype, np.complexfloating):
        return (x + 1j * rng.integers(0, 50, n)).astype(dtype)
    if np.issubdtype(dtype, np.floating):
        return (x / 4).astype(dtype)
    return x.astype(dtype)


def call(loop, operands, n):
    """NAME_loop(args, dimensions, steps, NULL) over n iterations."""
    args = (C.c_void_p * len(operands))(*[o.ctypes.data for o in operands])
    dims = (C.c_ssize_t * 1)(n)
    steps = (C.c_ssize_t * len(operands))(*[o.strides[0] if o.ndim else 0 for o in operands])
    loop(args, dims, steps, None)


def main():
    lib = C.CDLL(sys.argv[1])
    failures = []
    checks = 0
    n = 37  # not a multiple of any vector width
    for name, ins, out, op in CASES:
        loop = LOOP((f"{name}_loop", lib))
        base = [values(dt, 2 * n, seed) for seed, dt in enumerate(ins)]
        layouts = {
            "contiguous": [b[:n] for b in base],
            "every other element": [b[::2] for b in base],
            "first input broadcast": [np.asarray(base[0][3])] + [b[:n] for b in base[1:]],
        }
        for layout, operands in layouts.items():
            for count in (n, 0):
                result = np.zeros(2 * n, dtype=out)
                dest = result[::2] if layout == "every other element" else result[:n]
                call(loop, operands + [dest], count)
                want = np.zeros(2 * n, dtype=out)
                want_dest = want[::2] if layout == "every other element" else want[:n]
                if count:
                    args = [np.broadcast_to(o, (n,)) for o in operands]
                    want_dest[:] = op(*args)
                checks += 1
                if not np.array_equal(result, want):
                    failures.append(f"{name}, {layout}, {count} iterations: {result} != {want}")
    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    print(f"all {checks} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
