"""Pure-Python stand-in for `postyp`: the POST dtypes and the `Out` marker.

Lets a POST Python file import and run unchanged under CPython. A dtype is
both an annotation and a cast:

    x: Float32[:]            # 1-D array annotation (Numba spelling)
    y: Out[Float64[:, :]]    # an output parameter
    Float32(v)               # cast: the NumPy scalar of that dtype

Casts follow POST's semantics, not NumPy's: float -> int saturates (NaN ->
0, +-inf or out of range -> the dtype's min/max, else truncation toward
zero), int -> narrower int wraps (two's complement), number -> Bool is
`v != 0`, complex -> real drops the imaginary part.
"""

import math
import typing

import numpy as np

__all__ = [
    "Bool", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32",
    "UInt64", "Float16", "Float32", "Float64", "Complex64", "Complex128",
    "Str", "Bytes", "Out", "DType", "ArrayType", "OutType", "dtype_of",
]


class ArrayType:
    """An array annotation: dtype, ndim, static dims (None = dynamic) and
    layout ("C" or "F")."""

    def __init__(self, dtype, dims, layout):
        self.dtype = dtype
        self.dims = tuple(dims)
        self.ndim = len(self.dims)
        self.layout = layout

    @property
    def static(self):
        return all(d is not None for d in self.dims)

    def __repr__(self):
        parts = []
        for i, d in enumerate(self.dims):
            if d is not None:
                parts.append(str(d))
            elif self.layout == "F" and i == 0 and self.ndim > 1:
                parts.append("::1")
            else:
                parts.append(":")
        return f"{self.dtype.name}[{', '.join(parts)}]"

    def __eq__(self, other):
        return (isinstance(other, ArrayType) and self.dtype is other.dtype
                and self.dims == other.dims and self.layout == other.layout)

    def __hash__(self):
        return hash((self.dtype.name, self.dims, self.layout))

    # `Float64[:] | None`, as `Optional[Float64[:]]` spells it.
    def __or__(self, other):
        return typing.Optional[self] if other is None else NotImplemented

    def __ror__(self, other):
        return typing.Optional[self] if other is None else NotImplemented


class OutType:
    """`Out[T]`: an output array parameter."""

    def __init__(self, inner):
        if not isinstance(inner, ArrayType):
            raise TypeError(f"Out[...] takes an array type, not {inner!r}")
        self.inner = inner

    def __repr__(self):
        return f"Out[{self.inner!r}]"


class _OutMarker:
    def __getitem__(self, inner):
        return OutType(inner)

    def __repr__(self):
        return "Out"


Out = _OutMarker()

INT_RANGES = {
    "Int8": (-(2**7), 2**7 - 1),
    "Int16": (-(2**15), 2**15 - 1),
    "Int32": (-(2**31), 2**31 - 1),
    "Int64": (-(2**63), 2**63 - 1),
    "UInt8": (0, 2**8 - 1),
    "UInt16": (0, 2**16 - 1),
    "UInt32": (0, 2**32 - 1),
    "UInt64": (0, 2**64 - 1),
}


def _dim(item, axis, ndim):
    """One subscript entry: an int is a static dim; `:` dynamic; `::1`
    marks the contiguous axis (first -> F order, last -> C order)."""
    if isinstance(item, int) and not isinstance(item, bool):
        if item < 0:
            raise TypeError("a static dimension must be >= 0")
        return item, None
    if isinstance(item, slice):
        if item.start is not None or item.stop is not None:
            raise TypeError("array annotations take ':' or '::1', not a slice with bounds")
        if item.step is None:
            return None, None
        if item.step == 1:
            if ndim > 1 and axis == 0:
                return None, "F"
            if axis == ndim - 1:
                return None, "C"
        raise TypeError("'::1' marks the first (F order) or last (C order) axis")
    raise TypeError(f"bad array annotation entry {item!r}")


class DType:
    """One POST dtype: an annotation, subscriptable into array annotations,
    and callable as a cast."""

    def __init__(self, name, np_type, kind):
        self.name = name
        self.np = np_type  # the NumPy scalar type, None for Str/Bytes
        self.kind = kind  # "b", "i", "u", "f", "c", "str", "bytes"

    def __repr__(self):
        return self.name

    # `Float64 | None`, as `Optional[Float64]` spells it.
    def __or__(self, other):
        return typing.Optional[self] if other is None else NotImplemented

    def __ror__(self, other):
        return typing.Optional[self] if other is None else NotImplemented

    def __getitem__(self, items):
        if not isinstance(items, tuple):
            items = (items,)
        if self.np is None:
            raise TypeError(f"{self.name} has no arrays")
        dims = []
        layout = "C"
        for axis, it in enumerate(items):
            d, lay = _dim(it, axis, len(items))
            dims.append(d)
            if lay is not None:
                layout = lay
        return ArrayType(self, dims, layout)

    # -- casts ---------------------------------------------------------
    def __call__(self, x):
        if self.kind == "str":
            if isinstance(x, str):
                return x
            return str(x)
        if self.kind == "bytes":
            if isinstance(x, (bytes, bytearray)):
                return bytes(x)
            raise TypeError("Bytes() takes bytes")
        if isinstance(x, (str, bytes)):
            raise TypeError(f"cannot cast {type(x).__name__} to {self.name}")
        if self.kind == "b":
            return np.bool_(x != 0)
        if self.kind == "c":
            return self.np(complex(x))
        # A real result: drop the imaginary part of a complex first.
        if isinstance(x, (complex, np.complexfloating)):
            x = x.real
        if self.kind == "f":
            if isinstance(x, (bool, np.bool_)):
                x = int(x)
            if isinstance(x, (int, np.integer)):
                # One rounding from the exact integer.
                if self.name == "Float64":
                    return np.float64(float(int(x)))
                return self.np(np.float64(_round_int_to_f64_exact_or_near(int(x), self.np)))
            return self.np(np.float64(x))
        # integer results
        lo, hi = INT_RANGES[self.name]
        if isinstance(x, (bool, np.bool_)):
            return self.np(int(x))
        if isinstance(x, (int, np.integer)):
            v = int(x)
            span = hi - lo + 1
            return self.np((v - lo) % span + lo)
        f = float(x)
        if math.isnan(f):
            return self.np(0)
        if f == math.inf:
            return self.np(hi)
        if f == -math.inf:
            return self.np(lo)
        return self.np(max(lo, min(hi, math.trunc(f))))


def _round_int_to_f64_exact_or_near(v, np_type):
    """An integer to Float32/Float16 with a single rounding: round to the
    target precision directly (an int above 2**53 could otherwise round
    twice through Float64)."""
    if abs(v) < 2**53:
        return float(v)
    mant = 24 if np_type is np.float32 else 11
    neg = v < 0
    a = -v if neg else v
    shift = a.bit_length() - mant
    q, r = divmod(a, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q & 1):
        q += 1
    f = float(q << shift)
    return -f if neg else f


Bool = DType("Bool", np.bool_, "b")
Int8 = DType("Int8", np.int8, "i")
Int16 = DType("Int16", np.int16, "i")
Int32 = DType("Int32", np.int32, "i")
Int64 = DType("Int64", np.int64, "i")
UInt8 = DType("UInt8", np.uint8, "u")
UInt16 = DType("UInt16", np.uint16, "u")
UInt32 = DType("UInt32", np.uint32, "u")
UInt64 = DType("UInt64", np.uint64, "u")
Float16 = DType("Float16", np.float16, "f")
Float32 = DType("Float32", np.float32, "f")
Float64 = DType("Float64", np.float64, "f")
Complex64 = DType("Complex64", np.complex64, "c")
Complex128 = DType("Complex128", np.complex128, "c")
Str = DType("Str", None, "str")
Bytes = DType("Bytes", None, "bytes")

ALL = [Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64,
       Float16, Float32, Float64, Complex64, Complex128, Str, Bytes]

_PY_TYPES = {bool: Bool, int: Int64, float: Float64, complex: Complex128, str: Str, bytes: Bytes}


def dtype_of(annotation):
    """The DType of a scalar annotation (a DType or one of Python's
    bool/int/float/complex/str/bytes), else None."""
    if isinstance(annotation, DType):
        return annotation
    return _PY_TYPES.get(annotation)
