"""Tensors no honest producer makes: a DLPack capsule is whatever its
producer wrote, so every field is checked before compiled code (or the
package) follows a pointer it holds — the rank before a shape entry is
read, null pointers, negative extents, views that wrap around the address
space or span more than 2**63 bytes, unknown element types, devices other
than the host's. Each is refused with a TypeError or ValueError naming the
function and the parameter, and the interpreter goes on. The tensor
compiled code gets is the call's own copy of the fields checked. Data not
aligned for its type (NumPy's or a capsule's) is passed as an aligned copy,
an output's copy written back."""
import numpy as np
import pytest

from capsules import ABSENT, Handmade, of_array

TOTAL = r"total\(\): parameter `x`"


def test_a_huge_rank_is_refused_before_the_shape_is_read(kernels):
    a = np.arange(3.0)
    # The shape array holds 3 entries; reading 2**31 - 1 of them would
    # fault.
    for versioned in (True, False):
        with pytest.raises(ValueError, match=TOTAL + r" expects a 1-dimensional array \(Float64\[:\]\), "
                                                   r"got 2147483647 dimensions"):
            kernels.total(of_array(a, ndim=2**31 - 1, versioned=versioned))
    with pytest.raises(ValueError, match=TOTAL + r" expects a 1-dimensional array .*got 2 dimensions"):
        kernels.total(of_array(a, ndim=2))
    with pytest.raises(ValueError, match=r"weighted\(\): parameter `a` expects a 2-dimensional array .*got 0 dimensions"):
        kernels.weighted(of_array(a, ndim=0))


def test_a_negative_rank_is_refused(kernels):
    for ndim in (-1, -(2**31)):
        with pytest.raises(ValueError, match=TOTAL + rf" expects a 1-dimensional array .*got a DLPack tensor of rank {ndim}"):
            kernels.total(of_array(np.arange(3.0), ndim=ndim))


def test_null_pointers(kernels):
    a = np.arange(3.0)
    with pytest.raises(ValueError, match=TOTAL + r" got a DLPack tensor of 1 dimension whose shape pointer is null"):
        kernels.total(of_array(a, shape=None))
    with pytest.raises(ValueError, match=TOTAL + r" got a DLPack tensor of 3 elements whose data pointer is null"):
        kernels.total(of_array(a, data=None))
    # No element, no pointer needed; null strides are compact row-major.
    assert kernels.total(Handmade(None, [0])) == 0
    assert kernels.total(Handmade(None, [0], [1])) == 0
    assert kernels.total(of_array(a, strides=None)) == 3
    m = np.arange(6.0).reshape(2, 3)
    assert kernels.weighted(of_array(m, strides=None)) == kernels.weighted(m)


def test_negative_extents(kernels):
    with pytest.raises(ValueError, match=TOTAL + r" got a DLPack tensor with the negative extent -2 on axis 0"):
        kernels.total(of_array(np.arange(3.0), shape=[-2]))
    m = np.arange(6.0).reshape(2, 3)
    with pytest.raises(ValueError, match=r"parameter `a` got a DLPack tensor with the negative extent -1 on axis 1"):
        kernels.weighted(of_array(m, shape=[2, -1]))
    # A zero extent elsewhere does not excuse a negative one.
    with pytest.raises(ValueError, match=r"negative extent -5 on axis 0"):
        kernels.weighted(of_array(m, shape=[-5, 0]))


def test_views_that_wrap_around_the_address_space(kernels):
    a = np.arange(3.0)
    address = a.ctypes.data
    wraps = TOTAL + r" got a DLPack tensor whose elements wrap around the address space"
    # Below address 0: a reversed stride reaching past it.
    with pytest.raises(ValueError, match=wraps):
        kernels.total(of_array(a, shape=[2], strides=[-(address // 8) - 1]))
    # Past the top: the first element, or the last.
    with pytest.raises(ValueError, match=wraps):
        kernels.total(of_array(a, byte_offset=2**64 - address))
    with pytest.raises(ValueError, match=wraps):
        kernels.total(Handmade(2**64 - 16, [3], [1]))
    with pytest.raises(ValueError, match=wraps):
        kernels.total(Handmade(2**64 - 8, [1], [1], byte_offset=2**63))


def test_views_too_large_for_64_bit_offsets(kernels):
    a = np.arange(3.0)
    large = r" got a DLPack tensor of shape .* its elements span more than 2\*\*63 bytes"
    with pytest.raises(ValueError, match=TOTAL + large):
        kernels.total(of_array(a, strides=[-(2**62)]))
    with pytest.raises(ValueError, match=TOTAL + large):
        kernels.total(of_array(a, strides=[2**63 - 1]))
    with pytest.raises(ValueError, match=TOTAL + large):
        kernels.total(of_array(a, shape=[2**62], strides=None))
    # Stride-0 broadcasting spans one element, but its count must still fit.
    m = np.arange(6.0).reshape(2, 3)
    with pytest.raises(ValueError, match=r"parameter `a`" + large):
        kernels.weighted(of_array(m, shape=[2**32, 2**32], strides=[0, 0]))
    assert kernels.weighted(of_array(m + 7, shape=[2, 3], strides=[0, 0])) == 7.0 * sum(
        10 * i + j for i in range(2) for j in range(3))
    b = np.full(1, 2.0)
    assert kernels.weighted(of_array(b, shape=[3, 4], strides=[0, 0])) == 2.0 * sum(
        10 * i + j for i in range(3) for j in range(4))


def test_unknown_element_types(kernels):
    a = np.arange(3.0)
    for dtype, shown in [((2, 64, 4), r"DLPack type code 2 of 64 bits \(4 lanes\)"),
                         ((9, 8, 1), r"DLPack type code 9 of 8 bits \(1 lanes\)"),
                         ((2, 0, 1), r"DLPack type code 2 of 0 bits \(1 lanes\)"),
                         ((2, 32, 1), r"float32")]:
        with pytest.raises(TypeError, match=TOTAL + r" expects a float64 array \(Float64\[:\]\), got an array of " + shown):
            kernels.total(of_array(a, dtype=dtype))


def test_devices_other_than_the_host(kernels):
    a = np.arange(3.0)
    # The tensor's own device is checked even when __dlpack_device__ says
    # CPU, or is missing.
    for device, shown in [((2, 0), "CUDA"), ((10, 1), "ROCm"), ((-7, 0), "device type -7"), ((2**31 - 1, 0), "device type 2147483647")]:
        for answer in (None, (1, 0), ABSENT):
            with pytest.raises(ValueError, match=TOTAL + rf" expects an array in host memory, got one on {shown}"):
                kernels.total(of_array(a, device=device, dlpack_device=answer))
    # Pinned host memory is host memory.
    assert kernels.total(of_array(a, device=(3, 0))) == 3
    with pytest.raises(ValueError, match=TOTAL + r" expects an array in host memory, got one on CUDA"):
        kernels.total(of_array(a, dlpack_device=(2, 0)))
    for answer in ["cpu", (1,), (1, 0, 0), (2**40, 0), None]:
        producer = of_array(a)
        producer.dlpack_device = answer
        with pytest.raises(TypeError, match=TOTAL + r": __dlpack_device__ returned .*, not a \(device type, device id\) pair of ints"):
            kernels.total(producer)


def test_capsules_of_other_names_and_versions(kernels):
    a = np.arange(3.0)
    for name in [b"used_dltensor", b"used_dltensor_versioned", b"dltensor_v2", b""]:
        with pytest.raises(TypeError, match=TOTAL + r": __dlpack__ did not return a DLPack capsule"):
            kernels.total(of_array(a, name=name))
    for version in [(0, 8), (2**32 - 1, 0)]:
        with pytest.raises(ValueError, match=TOTAL + rf": the producer exported DLPack {version[0]}\.{version[1]}"):
            kernels.total(of_array(a, version=version))
    # A later minor version and flags postc does not know are read.
    assert kernels.total(of_array(a, version=(1, 3), flags=1 << 2 | 1 << 63)) == 3


def unaligned(n, dtype=np.float64, offset=1):
    """A NumPy array of n elements at an address its type's alignment does
    not divide (as `frombuffer` at an odd offset, or Dask's distributed
    serialisation, makes), holding 1, 2, 3, ..."""
    item = np.dtype(dtype).itemsize
    a = np.frombuffer(np.zeros(n * item + 16, np.uint8).data, dtype, count=n, offset=offset)
    a[...] = np.arange(1, n + 1)
    assert not a.flags.aligned or n == 0
    return a


def test_unaligned_arrays_are_read_through_an_aligned_copy(kernels):
    a = unaligned(4)
    assert kernels.total(a) == 10
    assert kernels.total(a[::-2]) == 4 + 2
    assert kernels.weighted(unaligned(6).reshape(2, 3)) == kernels.weighted(np.arange(1.0, 7.0).reshape(2, 3))
    assert kernels.weighted(unaligned(6).reshape(3, 2).T) == kernels.weighted(np.arange(1.0, 7.0).reshape(3, 2).T)
    # Through DLPack as well: a view of bytes 4.. of an array.
    b = np.arange(4.0)
    assert kernels.total(of_array(b, shape=[3], byte_offset=4)) == np.ndarray((3,), np.float64, b, 4).sum()
    assert kernels.total(of_array(a)) == 10
    # An array of no element has nothing to copy.
    assert kernels.total(unaligned(0)) == 0
    assert kernels.total(of_array(unaligned(0))) == 0


def test_unaligned_outputs_are_written_back(kernels):
    c = unaligned(5, np.float32, offset=2)
    kernels.scale(c, 2.0)
    assert c.tolist() == [2, 4, 6, 8, 10]
    kernels.scale(c[1::2], 0.5)
    assert c.tolist() == [2, 2, 6, 4, 10]
    kernels.scale(of_array(c[::-1]), 3.0)
    assert c.tolist() == [6, 6, 18, 12, 30]
    # What was written before a panic reaches the argument.
    d = unaligned(3)
    with pytest.raises(IndexError, match=r"index out of bounds"):
        kernels.fill_upto(d, 5)
    assert d.tolist() == [1, 2, 3]
    d[...] = 0
    with pytest.raises(IndexError):
        kernels.fill_upto(of_array(d), 4)
    assert d.tolist() == [1, 2, 3]


def test_an_unaligned_argument_returned_is_the_argument(kernels):
    a = unaligned(3)
    assert kernels.same_f64(a) is a
    p = of_array(a)
    assert kernels.same_f64(p) is p


def test_each_call_reads_the_fields_anew(kernels):
    a = np.arange(6.0)
    p = Handmade(a.ctypes.data, [6], [1], keep=a)
    assert kernels.total(p) == 15
    p.shape[0] = 2**61  # refused, not read past the buffer
    with pytest.raises(ValueError, match=r"span more than 2\*\*63 bytes"):
        kernels.total(p)
    p.shape[0] = 4
    assert kernels.total(p) == 6
    assert p.exports == 3


def test_handmade_views_give_numpys_results(kernels):
    """Consistent handmade tensors (reversed strides, a byte offset, the
    data pointer at an element other than the first, Fortran order,
    unversioned capsules) are read as NumPy reads the same view."""
    m = np.arange(24.0).reshape(4, 6)
    for view in [m, m[::-1], m[:, ::-2], m.T, m[1:3, 2:5], np.asfortranarray(m), m[::2, ::3].T]:
        for versioned in (True, False):
            assert kernels.weighted(of_array(view, versioned=versioned)) == kernels.weighted(np.ascontiguousarray(view))
    base = m.ctypes.data
    # Element 0 through the byte offset rather than the data pointer.
    assert kernels.total(Handmade(base, [5], [1], byte_offset=8, keep=m)) == 1 + 2 + 3 + 4 + 5
    # The data pointer at the last element, stepping back.
    assert kernels.total(Handmade(base + 8 * 23, [3], [-7], keep=m)) == 23 + 16 + 9
    assert kernels.trace3(of_array(np.arange(9.0).reshape(3, 3))) == 12
    with pytest.raises(ValueError, match=r"trace3\(\): parameter `m` expects a C-contiguous array"):
        kernels.trace3(of_array(np.arange(9.0).reshape(3, 3).T))
    with pytest.raises(ValueError, match=r"trace3\(\): parameter `m` expects extent 3 on axis 1"):
        kernels.trace3(of_array(np.arange(12.0).reshape(3, 4)))


def test_the_interpreter_goes_on(kernels):
    a = np.arange(3.0)
    for fields in [dict(ndim=2**31 - 1), dict(shape=None), dict(data=None), dict(shape=[-1]),
                   dict(strides=[2**62]), dict(dtype=(7, 7, 7)), dict(device=(2, 0))]:
        with pytest.raises((TypeError, ValueError)):
            kernels.total(of_array(a, **fields))
    assert kernels.total(a) == 3
