"""DLPack's structures as ctypes declares them (docs/abi.md §3) and a
producer whose capsule is made by hand, with any value in any field: the
package's tests and its argument fuzzer (python/fuzz/) build hostile and
unusual tensors with it. The producer owns its structures and keeps the
memory its tensor points into alive; its capsules have no destructor."""
import ctypes


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


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p),
                ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


capsule_new = ctypes.pythonapi.PyCapsule_New
capsule_new.restype = ctypes.py_object
capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

# DLPack's codes of the element types (`code, bits`), by NumPy's name.
DTYPES = {
    "bool": (6, 8), "int8": (0, 8), "int16": (0, 16), "int32": (0, 32), "int64": (0, 64),
    "uint8": (1, 8), "uint16": (1, 16), "uint32": (1, 32), "uint64": (1, 64),
    "float16": (2, 16), "float32": (2, 32), "float64": (2, 64), "complex64": (5, 64), "complex128": (5, 128),
}

READ_ONLY = 1
IS_COPIED = 2

# `dlpack_device=ABSENT`: the producer has no `__dlpack_device__`.
ABSENT = object()


class Handmade:
    """A producer whose `__dlpack__` returns a capsule over a tensor with
    exactly the fields given: `data` an address (None: null), `shape` and
    `strides` lists of int64 (None: a null pointer; `strides` in elements),
    `ndim` (default: len(shape)) whatever it says, `dtype` a `(code, bits,
    lanes)` triple or a NumPy name. A versioned capsule (`dltensor_versioned`)
    has `version` and `flags`; `name` replaces the capsule's name.
    `dlpack_device` is what `__dlpack_device__` answers (default: `device`).
    `keep` is held for the producer's life (the memory `data` points into)."""

    def __init__(self, data, shape, strides=None, *, dtype="float64", ndim=None, device=(1, 0), byte_offset=0,
                 versioned=True, version=(1, 0), flags=0, name=None, dlpack_device=None, keep=None):
        if isinstance(dtype, str):
            dtype = DTYPES[dtype] + (1,)
        self.keep = keep
        self.shape = None if shape is None else (ctypes.c_int64 * max(len(shape), 1))(*shape)
        self.strides = None if strides is None else (ctypes.c_int64 * max(len(strides), 1))(*strides)
        tensor = DLTensor(data, DLDevice(*device), len(shape or ()) if ndim is None else ndim,
                          DLDataType(*dtype),
                          None if self.shape is None else ctypes.cast(self.shape, ctypes.POINTER(ctypes.c_int64)),
                          None if self.strides is None else ctypes.cast(self.strides, ctypes.POINTER(ctypes.c_int64)),
                          byte_offset)
        if versioned:
            self.managed = DLManagedTensorVersioned(DLPackVersion(*version), None, None, flags, tensor)
            self.name = b"dltensor_versioned" if name is None else name
        else:
            self.managed = DLManagedTensor(tensor, None, None)
            self.name = b"dltensor" if name is None else name
        self.dlpack_device = device if dlpack_device is None else dlpack_device
        self.exports = 0

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        self.exports += 1
        return capsule_new(ctypes.addressof(self.managed), self.name, None)

    def __getattribute__(self, name):
        if name == "__dlpack_device__" and object.__getattribute__(self, "dlpack_device") is ABSENT:
            raise AttributeError(name)
        return object.__getattribute__(self, name)

    def __dlpack_device__(self):
        return self.dlpack_device


def of_array(a, **fields):
    """A handmade producer over NumPy array `a` (its own layout: data, shape,
    strides in elements, dtype), any field replaced by `fields`."""
    base = dict(data=a.ctypes.data, shape=list(a.shape), strides=[s // a.itemsize for s in a.strides],
                dtype=a.dtype.name, keep=a)
    base.update(fields)
    # A null shape keeps the array's rank; a replaced shape has its own.
    base.setdefault("ndim", a.ndim if base["shape"] is None else len(base["shape"]))
    data, shape = base.pop("data"), base.pop("shape")
    return Handmade(data, shape, **base)
