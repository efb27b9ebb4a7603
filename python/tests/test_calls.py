"""Calls of compiled functions: scalars converted as NumPy converts them,
arrays of every layout and any `__dlpack__` object passed without a copy,
results as NumPy scalars and arrays."""
import numpy as np
import pytest

import postc


def test_the_package_is_compiled(kernels):
    assert postc._native is not None
    assert kernels.library and kernels.library.endswith(".so")
    assert isinstance(kernels.total, postc._native.Function)


def test_scalars(kernels):
    assert kernels.add_i64(2, 3) == 5
    r = kernels.add_i64(np.int32(2), True)
    assert r == 3 and type(r) is np.int64
    r = kernels.mix(True, 3, 200, 0.5)
    assert r == -(0.5 + 30 + 200_000) and type(r) is np.float64
    assert kernels.mix(np.bool_(False), np.int16(-1), np.uint8(1), np.float32(0.25)) == 0.25 - 10 + 1000
    assert kernels.narrow(-1, 2**64 - 5) == 2**64 - 5
    h = kernels.half(np.float16(1.5))
    assert h == 3.0 and type(h) is np.float16
    assert kernels.half(0.1) == np.float16(0.1) * np.float16(2)
    c = kernels.cmul(1 + 2j, 3 - 1j)
    assert c == (1 + 2j) * (3 - 1j) and type(c) is np.complex128
    c = kernels.cscale(np.complex64(1 + 1j), 2.0)
    assert c == 2 + 2j and type(c) is np.complex64
    assert kernels.cmul(2, 3.5) == 7


def test_keywords(kernels):
    assert kernels.add_i64(b=1, a=2) == 3
    assert kernels.add_i64(5, b=1) == 6


def test_strings(kernels):
    assert kernels.greet("py") == "Hello, py!"
    assert kernels.greet("ünï") == "Hello, ünï!"
    assert kernels.blen(b"ab\x00c") == 4


def test_float32_conversion_rounds_as_numpy(kernels):
    y = np.ones(1, np.float32)
    kernels.scale(y, 0.1)
    assert y[0] == np.float32(0.1)


def test_one_dimensional_layouts(kernels):
    x = np.arange(10.0)
    assert kernels.total(x) == 45
    assert kernels.total(x[::2]) == 20
    assert kernels.total(x[::-1]) == 45
    assert kernels.total(x[1::3]) == 1 + 4 + 7
    assert kernels.total(x[:0]) == 0
    assert kernels.total(np.zeros(0)) == 0


@pytest.mark.parametrize("layout", ["C", "F", "T", "strided", "reversed", "offset"])
def test_two_dimensional_layouts(kernels, layout):
    base = np.arange(40.0).reshape(5, 8)
    a = {
        "C": base[:3, :4].copy(),
        "F": np.asfortranarray(base[:3, :4]),
        "T": base[:4, :3].T,
        "strided": base[::2, ::3],
        "reversed": base[::-1, ::-2],
        "offset": base[1:4, 2:7],
    }[layout]
    i, j = np.indices(a.shape)
    expected = (a * (10 * i + j)).sum()
    assert kernels.weighted(a) == expected


def test_zero_size_arrays(kernels):
    assert kernels.weighted(np.zeros((0, 4))) == 0
    assert kernels.weighted(np.zeros((3, 0))) == 0
    assert kernels.cumsum(np.zeros(0)).shape == (0,)


def test_fortran_and_static_parameters(kernels):
    a = np.arange(12.0).reshape(3, 4)
    assert kernels.weighted_f(np.asfortranarray(a)) == kernels.weighted(a)
    # A dynamic Fortran-order type takes any view, as the ABI says.
    assert kernels.weighted_f(a) == kernels.weighted(a)
    assert kernels.trace3(np.diag([1.0, 2.0, 4.0])) == 7


def test_outputs_are_written_in_place(kernels):
    buf = np.arange(8, dtype=np.float32)
    kernels.scale(buf[1::2], 10)
    assert buf.tolist() == [0, 10, 2, 30, 4, 50, 6, 70]


def test_bool_and_int_arrays(kernels):
    m = np.array([True, False, True, True])
    assert kernels.count_true(m) == 3
    assert kernels.count_true(m[::-1][::2]) == 1  # [True, False]
    assert kernels.count_true(m[1:]) == 2
    assert kernels.int32_sum(np.arange(5, dtype=np.int32)) == 10
    # `long` and `long long` are one 64-bit integer type.
    assert kernels.isum(np.arange(5, dtype="l")) == kernels.isum(np.arange(5, dtype="q")) == 10


def test_returned_arrays_own_their_memory(kernels):
    x = np.arange(5.0)
    c = kernels.cumsum(x)
    assert isinstance(c, np.ndarray) and c.dtype == np.float64
    assert c.tolist() == [0, 1, 3, 6, 10]
    assert c.flags.writeable and c.flags.c_contiguous
    assert c.base is not None  # the capsule that frees the tensor
    c[0] = 7  # the caller's memory
    del x
    d = kernels.cumsum(np.ones(3))
    assert c.tolist() == [7, 1, 3, 6, 10] and d.tolist() == [1, 2, 3]


class HostTensor:
    """A minimal DLPack producer over a NumPy array."""

    def __init__(self, a, device=(1, 0)):
        self.a = a
        self.device = device
        self.exported = 0

    def __dlpack__(self, stream=None, **kwargs):
        self.exported += 1
        return self.a.__dlpack__()

    def __dlpack_device__(self):
        return self.device


def test_dlpack_objects_pass_without_a_copy(kernels):
    x = HostTensor(np.arange(10.0)[::3])
    assert kernels.total(x) == 0 + 3 + 6 + 9
    assert x.exported == 1
    buf = np.ones(6, dtype=np.float32)
    kernels.scale(HostTensor(buf[::2]), 5)
    assert buf.tolist() == [5, 1, 5, 1, 5, 1]
    a = np.arange(12.0).reshape(3, 4)
    assert kernels.weighted(HostTensor(a.T)) == kernels.weighted(a.T.copy())


def test_dlpack_device_is_checked(kernels):
    with pytest.raises(ValueError, match=r"parameter `x` expects an array in host memory, got one on CUDA"):
        kernels.total(HostTensor(np.zeros(3), device=(2, 0)))
