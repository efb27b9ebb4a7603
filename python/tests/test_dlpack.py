"""DLPack arguments: postc asks for the versioned protocol
(`__dlpack__(max_version=(1, 0))`), falls back to the unversioned one for
producers that refuse the keyword, and honours a versioned tensor's flags:
a read-only tensor (or a copy the producer made) is refused for an `Out`
parameter with postc's own message, as a read-only NumPy array is."""
import ctypes

import numpy as np
import pytest

READ_ONLY = r"scale\(\): parameter `x` is an output \(Out\[Float32\[:\]\]\) and the array is read-only"


class Versioned:
    """A producer of the current protocol over a NumPy array (NumPy >= 2.1
    exports versioned capsules, with the read-only flag for a read-only
    array and the copied flag for a copy)."""

    def __init__(self, a, copy=None):
        self.a = a
        self.copy = copy
        self.asked = []

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        self.asked.append(max_version)
        return self.a.__dlpack__(max_version=max_version, copy=self.copy)

    def __dlpack_device__(self):
        return (1, 0)


class Legacy:
    """A producer of the unversioned protocol only: the keyword is a
    TypeError."""

    def __init__(self, a):
        self.a = a
        self.calls = 0

    def __dlpack__(self, stream=None):
        self.calls += 1
        return self.a.__dlpack__()

    def __dlpack_device__(self):
        return (1, 0)


def test_the_versioned_protocol_is_asked_for(kernels):
    x = Versioned(np.arange(4.0))
    assert kernels.total(x) == 6
    assert x.asked == [(1, 0)]
    capsule = np.arange(2.0).__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(capsule)


def test_an_unversioned_producer_still_works(kernels):
    x = Legacy(np.arange(5.0))
    assert kernels.total(x) == 10
    assert x.calls == 1  # the first, keyword, call raised before reaching it
    buf = np.ones(4, np.float32)
    kernels.scale(Legacy(buf), 3)
    assert buf.tolist() == [3, 3, 3, 3]


def test_a_writable_versioned_output_is_written(kernels):
    buf = np.ones(6, np.float32)
    kernels.scale(Versioned(buf[::2]), 5)
    assert buf.tolist() == [5, 1, 5, 1, 5, 1]


def test_numpys_read_only_export_is_refused_for_an_output(kernels):
    y = np.ones(3, np.float32)
    y.flags.writeable = False
    with pytest.raises(ValueError, match=READ_ONLY):
        kernels.scale(Versioned(y), 2.0)
    assert y.tolist() == [1, 1, 1]
    # As an input it is read, as any read-only array.
    z = np.arange(3.0)
    z.flags.writeable = False
    assert kernels.total(Versioned(z)) == 3


def test_a_copy_the_producer_made_is_refused_for_an_output(kernels):
    y = np.ones(3, np.float32)
    with pytest.raises(ValueError, match=r"parameter `x` is an output .* exported a copy of the array"):
        kernels.scale(Versioned(y, copy=True), 2.0)
    assert kernels.total(Versioned(np.arange(3.0), copy=True)) == 3


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p),
                ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


capsule_new = ctypes.pythonapi.PyCapsule_New
capsule_new.restype = ctypes.py_object
capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class Handmade:
    """A producer that builds its versioned capsule itself: a float32
    vector, with the flags and version it is given."""

    def __init__(self, a, flags=0, version=(1, 0)):
        assert a.dtype == np.float32 and a.ndim == 1
        self.a = a
        self.shape = (ctypes.c_int64 * 1)(a.shape[0])
        self.strides = (ctypes.c_int64 * 1)(a.strides[0] // 4)
        self.managed = DLManagedTensorVersioned(
            DLPackVersion(*version), None, None, flags,
            DLTensor(a.ctypes.data, DLDevice(1, 0), 1, DLDataType(2, 32, 1), self.shape, self.strides, 0))

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        assert max_version == (1, 0)
        return capsule_new(ctypes.addressof(self.managed), b"dltensor_versioned", None)

    def __dlpack_device__(self):
        return (1, 0)


def test_a_handmade_read_only_capsule(kernels):
    y = np.ones(4, np.float32)
    with pytest.raises(ValueError, match=READ_ONLY):
        kernels.scale(Handmade(y, flags=1), 2.0)
    assert y.tolist() == [1, 1, 1, 1]
    kernels.scale(Handmade(y[::2]), 2.0)
    assert y.tolist() == [2, 1, 2, 1]
    with pytest.raises(ValueError, match=r"exported a copy of the array"):
        kernels.scale(Handmade(y, flags=2), 2.0)


def test_a_later_major_version_is_refused(kernels):
    with pytest.raises(ValueError, match=r"parameter `x`: the producer exported DLPack 2\.0, which postc cannot read"):
        kernels.scale(Handmade(np.ones(2, np.float32), version=(2, 0)), 2.0)
