#!/usr/bin/env python3
"""Calls a shared library built from examples/abi_demo.pir through ctypes,
as docs/abi.md describes, with NumPy arrays of C, Fortran and strided
layout, and compares every result with NumPy.

    python3 tests/python/test_abi.py LIB.so

Exit status 0 when every check passes. Run by codegen/tests/abi_python.rs.
"""
import ctypes as C
import os
import subprocess
import sys

import numpy as np


# --- DLPack and postc types (docs/abi.md, include/postc.h) -----------------

class DLDevice(C.Structure):
    _fields_ = [("device_type", C.c_int32), ("device_id", C.c_int32)]


class DLDataType(C.Structure):
    _fields_ = [("code", C.c_uint8), ("bits", C.c_uint8), ("lanes", C.c_uint16)]


class DLTensor(C.Structure):
    _fields_ = [
        ("data", C.c_void_p),
        ("device", DLDevice),
        ("ndim", C.c_int32),
        ("dtype", DLDataType),
        ("shape", C.POINTER(C.c_int64)),
        ("strides", C.POINTER(C.c_int64)),
        ("byte_offset", C.c_uint64),
    ]


class DLManagedTensor(C.Structure):
    pass


DLManagedTensor._fields_ = [
    ("dl_tensor", DLTensor),
    ("manager_ctx", C.c_void_p),
    ("deleter", C.CFUNCTYPE(None, C.POINTER(DLManagedTensor))),
]


class PostcStr(C.Structure):
    _fields_ = [("ptr", C.c_void_p), ("len", C.c_int64)]


kDLCPU = 1
DL_CODES = {"b": 6, "i": 0, "u": 1, "f": 2, "c": 5}


class Tensor:
    """A DLTensor describing a NumPy array without copying it. Keeps the
    array and the shape/strides buffers alive as long as itself."""

    def __init__(self, arr, strides="given", byte_offset=0):
        self.arr = arr
        item = arr.itemsize
        self.shape = (C.c_int64 * max(arr.ndim, 1))(*arr.shape)
        if strides == "null":
            assert arr.flags.c_contiguous
            self.strides = None
        else:
            assert all(s % item == 0 for s in arr.strides)
            self.strides = (C.c_int64 * max(arr.ndim, 1))(*[s // item for s in arr.strides])
        t = DLTensor()
        # byte_offset: data points that many bytes before element 0.
        t.data = arr.ctypes.data - byte_offset
        t.device = DLDevice(kDLCPU, 0)
        t.ndim = arr.ndim
        t.dtype = DLDataType(DL_CODES[arr.dtype.kind], arr.itemsize * 8, 1)
        t.shape = self.shape
        t.strides = self.strides if self.strides is not None else None
        t.byte_offset = byte_offset
        self.t = t

    @property
    def ptr(self):
        return C.pointer(self.t)


P = C.POINTER(DLTensor)
failures = []


def check(name, fn):
    try:
        fn()
        print(f"ok   {name}")
    except Exception as e:  # report every failing check, then exit 1
        failures.append(name)
        print(f"FAIL {name}: {type(e).__name__}: {e}")


def weights(m, n):
    i, j = np.meshgrid(np.arange(m), np.arange(n), indexing="ij")
    return (100 * i + j).astype(np.float64)


def main(path):
    lib = C.CDLL(os.path.abspath(path))
    rng = np.random.default_rng(7)

    # --- scalars --------------------------------------------------------
    def mix():
        f = lib.mix
        f.argtypes = [C.c_bool, C.c_int16, C.c_uint8, C.c_float]
        f.restype = C.c_double
        assert f(False, -3, 250, 0.5) == -3 + 250 + 0.5
        assert f(True, -32768, 255, 0.25) == -(-32768 + 255 + 0.25)

    check("scalars: Bool, Int16, UInt8, Float32 -> Float64", mix)

    def cmul():
        Cx = C.c_double * 2
        f = lib.cmul
        f.argtypes = [C.POINTER(Cx), C.POINTER(Cx), C.POINTER(Cx)]
        f.restype = None
        a, b, out = Cx(1.5, -2.0), Cx(0.25, 3.0), Cx()
        f(a, b, out)
        want = complex(1.5, -2.0) * complex(0.25, 3.0)
        assert complex(out[0], out[1]) == want, (out[0], out[1], want)

    check("complex by pointer, result through the trailing pointer", cmul)

    def greet():
        f = lib.greet
        f.argtypes = [PostcStr]
        f.restype = PostcStr
        name = "wörld".encode()
        buf = C.create_string_buffer(name, len(name))  # no NUL needed
        r = f(PostcStr(C.cast(buf, C.c_void_p), len(name)))
        assert C.string_at(r.ptr, r.len).decode() == "Hello, wörld!"

    check("Str by value, in and out", greet)

    def bcat():
        f = lib.bcat
        f.argtypes = [PostcStr, PostcStr]
        f.restype = PostcStr
        a, b = C.create_string_buffer(b"\x00\xff", 2), C.create_string_buffer(b"ab", 2)
        r = f(PostcStr(C.cast(a, C.c_void_p), 2), PostcStr(C.cast(b, C.c_void_p), 2))
        assert C.string_at(r.ptr, r.len) == b"\x00\xffab"

    check("Bytes by value with NUL and 0xff bytes", bcat)

    # --- arrays -----------------------------------------------------------
    lib.total.argtypes = [P]
    lib.total.restype = C.c_double
    lib.total_f.argtypes = [P]
    lib.total_f.restype = C.c_double

    def total_c():
        a = rng.standard_normal((4, 5))
        want = float((a * weights(4, 5)).sum())
        for mode in ("null", "given"):
            np.testing.assert_allclose(lib.total(Tensor(a, mode).ptr), want, rtol=1e-13)
        # Rows step-sliced: the row stride is not fixed by the type and is
        # read from the tensor; the last axis stays contiguous.
        big = rng.standard_normal((9, 5))
        v = big[::2]
        np.testing.assert_allclose(lib.total(Tensor(v).ptr), float((v * weights(5, 5)).sum()), rtol=1e-13)

    check("C-order matrix (strides NULL and explicit), row-sliced view", total_c)

    def total_f():
        a = np.asfortranarray(rng.standard_normal((3, 6)))
        np.testing.assert_allclose(lib.total_f(Tensor(a).ptr), float((a * weights(3, 6)).sum()), rtol=1e-13)
        b = rng.standard_normal((6, 3))
        t = b.T  # a transposed C array is Fortran-ordered
        np.testing.assert_allclose(lib.total_f(Tensor(t).ptr), float((t * weights(3, 6)).sum()), rtol=1e-13)

    check("Fortran-order matrix and transposed C matrix", total_f)

    def every_other():
        f = lib.every_other_sum
        f.argtypes = [P]
        f.restype = C.c_double
        x = rng.standard_normal(11)
        for v in (x[::2], x[1::2]):
            want = float((v * np.arange(1, len(v) + 1)).sum())
            np.testing.assert_allclose(f(Tensor(v).ptr), want, rtol=1e-13)
        # The same view described with byte_offset from the buffer start.
        v = x[1::2]
        np.testing.assert_allclose(
            f(Tensor(v, byte_offset=8).ptr), float((v * np.arange(1, len(v) + 1)).sum()), rtol=1e-13
        )

    check("step-sliced vector (static strides), byte_offset", every_other)

    def scale():
        f = lib.scale
        f.argtypes = [P, C.c_double]
        f.restype = None
        x = rng.standard_normal(8)
        want = x * 2.5
        f(Tensor(x).ptr, 2.5)
        np.testing.assert_array_equal(x, want)

    check("output array written in place", scale)

    def norm_alias():
        x = rng.standard_normal(10)
        for name in ("norm", "l2"):
            f = getattr(lib, name)
            f.argtypes = [P]
            f.restype = C.c_double
            np.testing.assert_allclose(f(Tensor(x).ptr), np.linalg.norm(x), rtol=1e-14)

    check("function and its alias symbol", norm_alias)

    def private():
        for name in ("unlisted", "abi_demo.unlisted"):
            try:
                getattr(lib, name)
            except AttributeError:
                continue
            raise AssertionError(f"`{name}` is exported")

    check("a function outside `export` has no symbol", private)

    def cumsum():
        f = lib.cumsum
        f.argtypes = [P]
        f.restype = C.POINTER(DLManagedTensor)
        x = rng.standard_normal(12)[::3]  # a step-sliced view
        m = f(Tensor(x).ptr)
        t = m.contents.dl_tensor
        assert t.ndim == 1 and t.shape[0] == len(x), (t.ndim, t.shape[0])
        assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (2, 64, 1)
        assert t.device.device_type == kDLCPU
        step = t.strides[0] if t.strides else 1
        buf = (C.c_double * (len(x) * step)).from_address(t.data + t.byte_offset)
        got = np.frombuffer(buf, dtype=np.float64)[::step].copy()
        np.testing.assert_allclose(got, np.cumsum(x), rtol=1e-14)
        m.contents.deleter(m)

    check("returned array: DLManagedTensor released by its deleter", cumsum)

    # --- ufuncs -------------------------------------------------------------
    def axpy_dl():
        f = lib.axpy_dl
        f.argtypes = [P, P, P, P]
        f.restype = None
        a = np.array(1.5)
        base = rng.standard_normal((3, 4))
        y = rng.standard_normal(8)[::2]
        for x in (base, np.asfortranarray(base), rng.standard_normal((4, 3)).T, rng.standard_normal((6, 8))[::2, 1::2]):
            out = np.empty(x.shape)
            f(Tensor(a).ptr, Tensor(x).ptr, Tensor(y).ptr, Tensor(out).ptr)
            np.testing.assert_array_equal(out, 1.5 * x + y)
        # A transposed (non-contiguous) output.
        out = np.empty((4, 3)).T
        f(Tensor(a).ptr, Tensor(base).ptr, Tensor(y).ptr, Tensor(out).ptr)
        np.testing.assert_array_equal(out, 1.5 * base + y)

    check("axpy_dl: broadcasting, C/F/transposed/strided operands and output", axpy_dl)

    def rowdot_dl():
        f = lib.rowdot_dl
        f.argtypes = [P, P, P]
        f.restype = None
        a = rng.standard_normal((2, 5, 7))
        v = rng.standard_normal(14)[::2]  # a strided core axis
        out = np.empty((2, 5))
        f(Tensor(a).ptr, Tensor(v).ptr, Tensor(out).ptr)
        np.testing.assert_allclose(out, a @ v, rtol=1e-13)

    check("rowdot_dl: (n),(n)->() over a stack with a strided vector", rowdot_dl)

    def matmul_loop():
        f = lib.matmul_loop
        f.argtypes = [C.POINTER(C.c_char_p), C.POINTER(C.c_ssize_t), C.POINTER(C.c_ssize_t), C.c_void_p]
        f.restype = None
        s, m, k, n = 4, 3, 5, 2
        A = rng.standard_normal((s, m, k))
        B = rng.standard_normal((s, n, k)).transpose(0, 2, 1)  # core axes transposed
        Cm = np.empty((s, m, n))
        ops = (A, B, Cm)
        args = (C.c_char_p * 3)(*[C.cast(o.ctypes.data, C.c_char_p) for o in ops])
        # NumPy's convention: dimensions = [outer, m, k, n] (distinct core
        # dimensions in order of first appearance), steps = the outer
        # stride of each operand, then each operand's core strides.
        dims = (C.c_ssize_t * 4)(s, m, k, n)
        steps = (C.c_ssize_t * 9)(
            *[o.strides[0] for o in ops], *A.strides[1:], *B.strides[1:], *Cm.strides[1:]
        )
        f(args, dims, steps, None)
        np.testing.assert_allclose(Cm, A @ B, rtol=1e-13)

    check("matmul_loop with NumPy's dimensions/steps over a stack", matmul_loop)

    def matmul_dl():
        f = lib.matmul_dl
        f.argtypes = [P, P, P]
        f.restype = None
        A = rng.standard_normal((2, 1, 3, 4))
        B = np.asfortranarray(rng.standard_normal((3, 4, 5)))
        out = np.empty((2, 3, 3, 5))
        f(Tensor(A).ptr, Tensor(B).ptr, Tensor(out).ptr)
        np.testing.assert_allclose(out, A @ B, rtol=1e-13)

    check("matmul_dl: broadcast stacks, Fortran-ordered operand", matmul_dl)

    def cross():
        f = lib.cross_dl
        f.argtypes = [P, P, P]
        f.restype = None
        a = rng.standard_normal((3, 5)).T  # rows of a transposed array: core stride 5 elements
        b = rng.standard_normal(3)
        out = np.empty((3, 5)).T  # a non-contiguous output, copied back
        f(Tensor(a).ptr, Tensor(b).ptr, Tensor(out).ptr)
        np.testing.assert_allclose(out, np.cross(a, b), rtol=1e-13)
        g = lib.cross_loop
        g.argtypes = [C.POINTER(C.c_char_p), C.POINTER(C.c_ssize_t), C.POINTER(C.c_ssize_t), C.c_void_p]
        g.restype = None
        out2 = np.empty((5, 3))
        ops = (a, np.broadcast_to(b, (5, 3)), out2)
        args = (C.c_char_p * 3)(*[C.cast(o.ctypes.data, C.c_char_p) for o in ops])
        dims = (C.c_ssize_t * 2)(5, 3)
        steps = (C.c_ssize_t * 6)(*[o.strides[0] for o in ops], *[o.strides[1] for o in ops])
        g(args, dims, steps, None)
        np.testing.assert_allclose(out2, np.cross(a, b), rtol=1e-13)

    check("cross (3),(3)->(3): static core shape, strided operands copied", cross)

    # --- panics ---------------------------------------------------------------
    def panics():
        cases = [
            ("get", "panic: index out of bounds: index 5 is out of range for axis 0 with size 3 at examples/abi_demo.pir:"),
            ("bcast", "panic: ufunc axpy: operands could not be broadcast together at examples/abi_demo.pir:"),
        ]
        for case, want in cases:
            r = subprocess.run(
                [sys.executable, __file__, "--panic", case, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
            err = r.stderr.decode()
            assert r.returncode == -6, (case, r.returncode, err)  # SIGABRT
            assert err.startswith(want), (case, err)
            assert err.endswith("\n") and err.count("\n") == 1, err

    check("panics print `panic: ... at FILE:LINE:COL` and abort", panics)

    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


def panic_case(case, path):
    lib = C.CDLL(os.path.abspath(path))
    if case == "get":
        lib.get.argtypes = [P, C.c_int64]
        lib.get.restype = C.c_double
        x = np.zeros(3)
        lib.get(Tensor(x).ptr, 5)
    elif case == "bcast":
        lib.axpy_dl.argtypes = [P, P, P, P]
        a, x, y, out = np.array(1.0), np.zeros((2, 3)), np.zeros(4), np.zeros((2, 3))
        lib.axpy_dl(Tensor(a).ptr, Tensor(x).ptr, Tensor(y).ptr, Tensor(out).ptr)
    print("no panic")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--panic":
        sys.exit(panic_case(sys.argv[2], sys.argv[3]))
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
