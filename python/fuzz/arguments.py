"""Fuzzes the postc package's argument conversion (pyabi/src/call.rs):
random NumPy views, DLPack producers — NumPy's own capsules, and capsules
made by hand with random, sometimes hostile fields — and scalars of every
Python and NumPy kind, against the signatures of signatures.py, compiled
once.

The property: the interpreter never crashes, and every call either raises
what the package's rules (docs/python.md, "Calls") give for the arguments
— TypeError, ValueError or OverflowError naming the parameter, or the
producer's own exception (NumPy's BufferError) — or, when the rules accept
every argument, returns what the same function returns under CPython
(signatures.py imported as plain Python: the oracle) for the values the
parameters hold, with the same writes to its outputs. A case the rules
accept must run, one they refuse must not.

The rules are restated here, independently of the package: which dtype,
rank, extents, strides, alignment, flags and device an array argument
needs, and the value a number becomes for each scalar dtype (integers
rounded once to a float dtype, from their exact value).

Handmade tensors point only into memory the fuzzer owns, or carry a field
the package must refuse before following a pointer (a rank other than the
parameter's, whose shape array holds only the parameter's rank of entries;
a null pointer; a view that wraps around the address space or spans more
than 2**63 bytes). The package cannot tell a dangling pointer from a live
one and is not asked to. Unaligned data (NumPy's `frombuffer` at an
offset, a capsule's data pointer moved by less than an element) is
accepted: the package passes an aligned copy and writes an output's back.

Cases run in batches, each in a subprocess, so that a crash is caught: a
worker announces each case before making it, and the parent prints the
seed and case of a crash or a broken property and goes on.

    python python/fuzz/arguments.py --seconds 600            # ten minutes
    python python/fuzz/arguments.py --seconds 5 --seed 1     # a fixed run
    python python/fuzz/arguments.py --replay 1234:56         # one case again

It needs the installed package (`pip install ./python`); it compiles into
$POSTC_CACHE_DIR, else a temporary directory of its own."""
import argparse
import ctypes
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
import traceback
from fractions import Fraction

import numpy as np
from numpy.lib.stride_tricks import as_strided

HERE = os.path.dirname(os.path.abspath(__file__))
SIGNATURES = os.path.join(HERE, "signatures.py")
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from capsules import ABSENT, DTYPES, IS_COPIED, READ_ONLY, Handmade  # noqa: E402

# ---------------------------------------------------------------------------
# Parameters, as the package reports them (`Function.parameters`).

NUMPY_OF = {"Str": "str", "Bytes": "bytes", "Bool": "bool", "Int8": "int8", "Int16": "int16", "Int32": "int32", "Int64": "int64",
            "UInt8": "uint8", "UInt16": "uint16", "UInt32": "uint32", "UInt64": "uint64",
            "Float16": "float16", "Float32": "float32", "Float64": "float64",
            "Complex64": "complex64", "Complex128": "complex128"}


class Param:
    """A parameter: `dtype` NumPy's name; for an array, `dims` (None for a
    dynamic extent), whether it is an output, and the byte strides its type
    fixes (static C order) or None."""

    def __init__(self, name, text):
        self.name = name
        self.array = "[" in text
        self.output = text.startswith("&")
        base = text.lstrip("&")
        self.dtype = NUMPY_OF[base.split("[")[0]]
        self.text = self.dtype in ("str", "bytes")
        self.dims = []
        self.fixed = None
        if self.array:
            inside = base[base.index("Shape[") + 6:base.rindex("]")] if "Shape[" in base else ""
            self.dims = [None if d.strip() == "?" else int(d) for d in inside.split(",") if d.strip()]
            if self.dims and all(d is not None for d in self.dims) and "FOrder" not in base:
                item = np.dtype(self.dtype).itemsize
                self.fixed = compact_strides(self.dims, item)

    @property
    def rank(self):
        return len(self.dims)


def compact_strides(shape, item):
    strides, acc = [], item
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return strides[::-1]


def alignment(dtype):
    """The alignment compiled code assumes of an element (its C type's)."""
    d = np.dtype(dtype)
    return d.itemsize // 2 if d.kind == "c" else min(d.itemsize, 8)


# ---------------------------------------------------------------------------
# The rules for arrays.

ARRAY_DTYPES = [d for d in NUMPY_OF.values() if d not in ("str", "bytes")]


def numpy_dtype_ok(dt, want):
    """An array of NumPy dtype `dt` for a parameter of `want`: exactly the
    element type (kind and size), in native byte order."""
    if dt.fields is not None or dt.kind not in "biufc":
        return False
    if dt.byteorder == ">" or (dt.byteorder == "<" and sys.byteorder == "big"):
        return False
    try:
        return np.dtype(dt.kind + str(dt.itemsize)) == np.dtype(want) if dt.kind != "b" else want == "bool"
    except TypeError:
        return False


def layout_violations(shape, byte_strides, p):
    """ValueError for a rank, a static extent or a stride the type fixes
    that the array does not have (`byte_strides` None: compact)."""
    if len(shape) != p.rank:
        return {ValueError}
    if any(w is not None and w != n for w, n in zip(p.dims, shape)):
        return {ValueError}
    if p.fixed is not None:
        strides = byte_strides if byte_strides is not None else compact_strides(shape, np.dtype(p.dtype).itemsize)
        if any(n > 1 and f != s for f, s, n in zip(p.fixed, strides, shape)):
            return {ValueError}
    return set()


def numpy_violations(a, p):
    """The exceptions a NumPy array argument may raise (empty: accepted)."""
    v = set()
    if not numpy_dtype_ok(a.dtype, p.dtype):
        v.add(TypeError)
    v |= layout_violations(a.shape, list(a.strides), p)
    if not a.flags.c_contiguous and any(s % a.itemsize for s in a.strides):
        v.add(ValueError)
    if p.output and not a.flags.writeable:
        v.add(ValueError)
    return v


# ---------------------------------------------------------------------------
# The rules for numbers: the value a parameter of each dtype holds.

FLOATS = {"float16": (11, 16), "float32": (24, 128), "float64": (53, 1024)}


def nearest(v, part):
    """The integer `v` rounded once to the float dtype `part` (ties to
    even), exactly, as a NumPy scalar; None when a Float64 overflows
    (Python's float() raises there; narrower floats give infinity)."""
    bits, top = FLOATS[part]
    negative, m = v < 0, abs(v)
    shift = m.bit_length() - bits
    if shift > 0:
        q, r = divmod(m, 1 << shift)
        half = 1 << (shift - 1)
        if r > half or (r == half and q & 1):
            q += 1
        m = q << shift
    if m >= 1 << top:
        if part == "float64":
            return None
        return np.dtype(part).type(-np.inf if negative else np.inf)
    return np.dtype(part).type(-float(m) if negative else float(m))


def real_value(x, part):
    """A real number as the float dtype `part`, or None when it is not one
    a float parameter takes ("overflow" when it is too large)."""
    if isinstance(x, (bool, np.bool_)):
        return np.dtype(part).type(float(bool(x)))
    if isinstance(x, (int, np.integer)):
        r = nearest(int(x), part)
        return "overflow" if r is None else r
    if isinstance(x, np.floating) and np.dtype(type(x)).itemsize > 8:
        return np.asarray(x).astype(part)[()]
    if isinstance(x, (float, np.floating)):
        with np.errstate(over="ignore"):
            return np.asarray(float(x), np.float64).astype(part)[()]
    return None


def scalar_value(x, dtype):
    """(the NumPy scalar a parameter of `dtype` holds for argument `x`,
    None) or (None, the exception type the package raises)."""
    if dtype == "str":
        if not isinstance(x, str):
            return None, TypeError
        try:
            x.encode("utf-8")
        except UnicodeEncodeError:
            return None, ValueError  # lone surrogates: no UTF-8 to pass
        return x, None
    if dtype == "bytes":
        return (x, None) if isinstance(x, bytes) else (None, TypeError)
    if dtype == "bool":
        return (np.bool_(bool(x)), None) if isinstance(x, (bool, np.bool_)) else (None, TypeError)
    kind = np.dtype(dtype).kind
    if kind in "iu":
        if isinstance(x, (bool, np.bool_)):
            x = int(bool(x))
        if not isinstance(x, (int, np.integer)):
            return None, TypeError
        info = np.iinfo(dtype)
        if not info.min <= int(x) <= info.max:
            return None, OverflowError
        return np.dtype(dtype).type(int(x)), None
    if kind == "f":
        r = real_value(x, dtype)
        if r is None:
            return None, TypeError
        if isinstance(r, str):
            return None, OverflowError
        return r, None
    part = "float32" if dtype == "complex64" else "float64"
    if isinstance(x, np.complexfloating) and np.dtype(type(x)).itemsize > 16:
        c = complex(x) if part == "float64" else complex(np.asarray(x).astype(np.complex64)[()])
        return np.dtype(dtype).type(c), None
    if isinstance(x, (complex, np.complexfloating)):
        x = complex(x)
        re, im = real_value(x.real, part), real_value(x.imag, part)
        return np.dtype(dtype).type(complex(re, im)) if part == "float64" else _complex64(re, im), None
    r = real_value(x, dtype_part := part)
    if r is None:
        return None, TypeError
    if isinstance(r, str):
        return None, OverflowError
    return (np.dtype(dtype).type(complex(float(r), 0.0)) if dtype_part == "float64" else _complex64(r, np.float32(0))), None


def _complex64(re, im):
    out = np.zeros(1, np.complex64)
    out.real[0], out.imag[0] = re, im
    return out[0]


class SubInt(int):
    pass


class SubFloat(float):
    pass


def random_int(rng):
    choice = rng.integers(0, 6)
    if choice == 0:
        return int(rng.integers(-300, 300))
    if choice == 1:
        e = int(rng.choice([7, 8, 15, 16, 24, 31, 32, 53, 54, 63, 64, 127, 128, 1023, 1024, 1400]))
        return int(rng.choice([1, -1])) * ((1 << e) + int(rng.integers(-2, 3)))
    if choice == 2:
        # Double rounding cases: (2**bits + 1) * 2**k + small, for Float32
        # and Float16.
        bits = int(rng.choice([11, 24]))
        k = int(rng.integers(54 - bits, 100))
        return int(rng.choice([1, -1])) * ((((1 << bits) + 1) << k) + int(rng.integers(-1, 2)))
    if choice == 3:
        b = int(rng.integers(1, 140))
        return int(rng.choice([1, -1])) * (int.from_bytes(rng.bytes(b // 8 + 1), "little") % (1 << b))
    if choice == 4:
        return int(rng.integers(0, 2**63, dtype=np.uint64)) * int(rng.choice([1, -1]))
    return int(rng.integers(60000, 70000)) * int(rng.choice([1, -1]))


def random_float(rng):
    choice = rng.integers(0, 5)
    if choice == 0:
        return float(np.frombuffer(rng.bytes(8), np.float64)[0])
    if choice == 1:
        return float(rng.integers(-50, 50))
    if choice == 2:
        # Halfway points of Float32 and Float16 nudged by a last-bit
        # amount of Float64.
        m = int(rng.choice([24, 11]))
        e = int(rng.integers(-30, 20))
        base = (1 + 2.0**-m) * 2.0**e
        return float(rng.choice([1, -1])) * float(np.nextafter(base, [0, np.inf][int(rng.integers(0, 2))]))
    if choice == 3:
        return float(rng.choice([np.nan, np.inf, -np.inf, 0.0, -0.0, 65504.0, 65520.0, 3.4028235e38, 1e-45, 6e-8]))
    return float(np.ldexp(rng.uniform(1, 2), int(rng.integers(-30, 20)))) * float(rng.choice([1, -1]))


def random_number(rng):
    """A scalar argument of any kind, and how it prints."""
    kind = int(rng.integers(0, 14))
    if kind == 0:
        return bool(rng.integers(0, 2))
    if kind in (1, 2):
        return random_int(rng)
    if kind in (3, 4):
        return random_float(rng)
    if kind == 5:
        return complex(random_float(rng), random_float(rng))
    if kind == 6:
        t = rng.choice(["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
        info = np.iinfo(t)
        return np.dtype(t).type(int(rng.integers(info.min, info.max, endpoint=True, dtype=np.int64 if info.min < 0 else np.uint64)))
    if kind == 7:
        with np.errstate(over="ignore"):
            return np.dtype(rng.choice(["float16", "float32", "float64"])).type(random_float(rng))
    if kind == 8:
        # A long double with bits below Float64's.
        x = np.longdouble(random_float(rng))
        return x + x * np.longdouble(2.0**-60) * int(rng.integers(-3, 4)) if np.isfinite(x) else x
    if kind == 9:
        return np.dtype(rng.choice(["complex64", "complex128", "clongdouble"])).type(
            complex(random_float(rng), random_float(rng)))
    if kind == 10:
        return np.bool_(rng.integers(0, 2))
    if kind == 11:
        return SubInt(random_int(rng)) if rng.integers(0, 2) else SubFloat(random_float(rng))
    if kind == 12:
        return [None, "1", b"1", [1], Fraction(1, 3), np.datetime64(1, "s"), np.str_("2"), object()][
            int(rng.integers(0, 8))]
    return np.float64(random_float(rng))


class SubStr(str):
    pass


def random_text(rng, p):
    """A str or bytes (or something else) for a Str or Bytes parameter."""
    choice = int(rng.integers(0, 8))
    chars = "".join(chr(int(c)) for c in rng.integers(0, 0x110000 if choice == 0 else 0x800, size=int(rng.integers(0, 6))))
    if choice <= 2:
        return chars if p.dtype == "str" else chars.encode("utf-8", "surrogatepass")
    if choice == 3:
        return SubStr(chars)
    if choice == 4:
        return "a\ud800b"[: int(rng.integers(1, 4))]
    if choice == 5:
        return bytearray(b"ab")
    if choice == 6:
        return np.str_(chars) if rng.integers(0, 2) else np.bytes_(b"xy")
    return random_number(rng)


def scalar_for(rng, p):
    """A number for scalar parameter `p`: often one of its own kind."""
    if p.text:
        return random_text(rng, p)
    if rng.integers(0, 3) == 0:
        kind = np.dtype(p.dtype).kind
        if kind == "b":
            return bool(rng.integers(0, 2))
        if kind in "iu":
            info = np.iinfo(p.dtype)
            return int(rng.integers(max(info.min, -100), min(info.max, 100)))
        return float(rng.integers(-20, 20)) / 4
    return random_number(rng)


# ---------------------------------------------------------------------------
# Array arguments.

def fill(rng, shape, dtype):
    """An array of small integers (exact in every dtype), of `dtype`."""
    return np.asarray(_fill(rng, shape, dtype))


def _fill(rng, shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dt.kind == "u":
        return rng.integers(0, 20, size=shape).astype(dt)
    if dt.kind == "c":
        return (rng.integers(-9, 10, size=shape) + 1j * rng.integers(-9, 10, size=shape)).astype(dt)
    if dt.kind in "if":
        return rng.integers(-9, 10, size=shape).astype(dt)
    return np.zeros(shape, dt)


def random_shape(rng, p, rank):
    top = 3 if rank > 3 else 5
    shape = []
    for axis in range(rank):
        static = p.dims[axis] if axis < p.rank else None
        if static is not None and rng.integers(0, 8):
            shape.append(static)
        else:
            shape.append(0 if rng.integers(0, 12) == 0 else int(rng.integers(1, top + 1)))
    return shape


class Arg:
    """An argument as generated: the object passed, the value the oracle
    gets (for an output, a copy, compared after the calls with `written`,
    the memory the compiled call wrote), the exceptions the rules allow
    (empty: it must be accepted), whether those come from the producer
    (`foreign`: its own message) and a description for reports."""

    def __init__(self, obj, oracle, refusals, text, written=None, foreign=False):
        self.obj, self.oracle, self.refusals, self.text = obj, oracle, set(refusals), text
        self.written, self.foreign = written, foreign


def strided_view(rng, shape, dtype, injective):
    """A view of `shape` into a larger array of `dtype`: steps, reversed
    axes, permuted storage; with `injective` False also stride-0 axes."""
    rank = len(shape)
    if rank == 0:
        return fill(rng, [], dtype)
    steps = [int(rng.integers(1, 4)) for _ in shape]
    signs = [int(rng.choice([1, -1])) for _ in shape]
    order = list(rng.permutation(rank)) if rank else []
    box_shape = [max(n, 1) * s for n, s in zip(shape, steps)]
    box = fill(rng, [box_shape[a] for a in order], dtype)
    box = box.transpose(list(np.argsort(order)))
    view = box[tuple(slice(None, None, sg * st) for sg, st in zip(signs, steps))]
    view = view[tuple(slice(0, n) for n in shape)]
    if not injective and rank and rng.integers(0, 4) == 0:
        axis = int(rng.integers(0, rank))
        strides = list(view.strides)
        strides[axis] = 0
        view = as_strided(view, shape, strides)
    return view


def numpy_argument(rng, p):
    """A NumPy array (or something else) for array parameter `p`."""
    dtype = p.dtype if rng.integers(0, 6) else str(rng.choice(ARRAY_DTYPES + ["longdouble", "U2", "M8[s]", "V8"]))
    rank = p.rank if rng.integers(0, 8) else int(rng.integers(0, 6))
    shape = random_shape(rng, p, rank)
    how = int(rng.integers(0, 10))
    text = f"{dtype}{shape}"
    if how <= 2:
        a = fill(rng, shape, dtype)
        if rng.integers(0, 3) == 0:
            a = np.asfortranarray(a)
            text += " F"
    elif how <= 6:
        a = strided_view(rng, shape, dtype, injective=p.output)
        text += f" view strides {a.strides}"
    elif how == 7:
        # Unaligned: frombuffer at a byte offset.
        item = np.dtype(dtype).itemsize
        offset = int(rng.integers(0, max(item, 2)))
        n = int(np.prod(shape))
        raw = np.zeros((n + 2) * item + 16, np.uint8)
        a = np.frombuffer(raw.data, dtype, count=n, offset=offset).reshape(shape)
        if a.dtype.kind in "biufc" and n:
            a[...] = fill(rng, shape, dtype)
        text += f" frombuffer offset {offset}"
    elif how == 8:
        # Another byte order, or strides that are not whole elements.
        if rng.integers(0, 2) and np.dtype(dtype).itemsize > 1:
            a = fill(rng, shape, dtype).astype(np.dtype(dtype).newbyteorder())
            text += " byte-swapped"
        else:
            item = np.dtype(dtype).itemsize
            n = max(int(np.prod(shape)), 1)
            raw = np.zeros(n * (item + 3) + item, np.uint8)
            strides = compact_strides(shape, item + int(rng.integers(0, 3)))
            a = as_strided(np.frombuffer(raw.data, dtype, count=1), shape, strides)
            text += f" byte strides {strides}"
    else:
        a = np.broadcast_to(fill(rng, shape[1:] if shape else [], dtype), shape) if shape else fill(rng, [], dtype)
        text += " broadcast"
    if rng.integers(0, 8) == 0:
        a.flags.writeable = False
        text += " read-only"
    if rng.integers(0, 20) == 0:
        a = a.view(SubArray)
        text += " subclass"
    refusals = numpy_violations(a, p)
    if rng.integers(0, 40) == 0:
        other = [a.tolist(), None, 3.0, memoryview(b"abcd"), "x"][int(rng.integers(0, 5))]
        return Arg(other, None, {TypeError}, f"a {type(other).__name__}")
    return array_arg(a, a, refusals, "numpy " + text, p)


class SubArray(np.ndarray):
    pass


def array_arg(obj, view, refusals, text, p):
    """The Arg of an array whose elements the compiled call sees as `view`."""
    if refusals:
        return Arg(obj, None, refusals, text)
    if p.output:
        return Arg(obj, np.array(view), refusals, text, written=view)
    return Arg(obj, np.asarray(view), refusals, text)


class NumpyProducer:
    """A DLPack producer over a NumPy array: NumPy's own capsules, versioned
    or (a producer of the older protocol) not, or a copy."""

    def __init__(self, a, versioned, copy):
        self.a, self.versioned, self.copy = a, versioned, copy

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        if not self.versioned:
            if max_version is not None:
                raise TypeError("__dlpack__() got an unexpected keyword argument 'max_version'")
            return self.a.__dlpack__()
        return self.a.__dlpack__(max_version=max_version, copy=self.copy)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def numpy_producer_argument(rng, p):
    arg = numpy_argument(rng, p)
    a = arg.obj
    if not isinstance(a, np.ndarray):
        return arg
    versioned = bool(rng.integers(0, 3))
    copy = bool(versioned and rng.integers(0, 6) == 0)
    producer = NumpyProducer(a, versioned, copy)
    try:
        if versioned:
            a.__dlpack__(max_version=(1, 0), copy=copy)
        else:
            a.__dlpack__()
    except Exception as e:  # NumPy's own refusal reaches the caller
        return Arg(producer, None, {type(e)}, f"numpy producer ({e}) over {arg.text}", foreign=True)
    refusals = set(arg.refusals)
    # What NumPy exports, it exports as DLPack: the stride rule is NumPy's
    # (it refused above), the copied flag refuses an output.
    if copy:
        # The producer exports a compact, aligned, writable copy.
        refusals = numpy_violations(np.array(a), p) | ({ValueError} if p.output else set())
    text = f"numpy producer versioned={versioned} copy={copy} over {arg.text}"
    if refusals:
        return Arg(producer, None, refusals, text)
    if copy:
        return Arg(producer, np.array(a), refusals, text)
    return array_arg(producer, a, refusals, text, p)


HOST_DEVICES = (1, 3, 11)
TOP = 1 << 64


def handmade_argument(rng, p):
    """A capsule made by hand: a consistent view of memory this case owns,
    then, often, fields made wrong."""
    dtype = p.dtype if rng.integers(0, 8) else str(rng.choice(ARRAY_DTYPES))
    item = np.dtype(dtype).itemsize
    rank = p.rank
    shape = random_shape(rng, p, rank)
    size = int(np.prod(shape)) if shape else 1
    # Strides in elements: compact, an injective strided view, or (inputs)
    # anything small, stride 0 included.
    how = int(rng.integers(0, 3))
    if how == 0 or rank == 0:
        strides = [s // item for s in compact_strides(shape, item)]
    elif how == 1 or p.output:
        perm = list(rng.permutation(rank))
        box = [max(shape[a], 1) * int(rng.integers(1, 3)) for a in perm]
        placed = [s // item for s in compact_strides(box, item)]
        strides = [0] * rank
        for k, a in enumerate(perm):
            strides[a] = placed[k] * int(rng.choice([1, -1])) * (box[k] // max(shape[a], 1))
    else:
        strides = [int(rng.integers(-4, 5)) for _ in shape]
    low = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0 and n > 0)
    high = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0 and n > 0)
    # One spare element on each side: a misaligned view stays inside.
    buf = fill(rng, [high - low + 3], dtype)
    first = 1 - low
    base = buf.ctypes.data
    first_byte = base + first * item
    if size:
        view = as_strided(buf[first:], shape, [s * item for s in strides])
    else:
        view = np.zeros(shape, dtype)
    fields = dict(strides=strides, dtype=dtype, ndim=rank, device=(1, 0), byte_offset=0, versioned=True,
                  version=(1, int(rng.integers(0, 4))), flags=0, name=None, dlpack_device=None, keep=buf)
    data, shape_field = first_byte, list(shape)
    split = int(rng.integers(0, 3))
    if split == 1:
        data, fields["byte_offset"] = base, first * item
    elif split == 2 and first:
        k = int(rng.integers(0, first + 1))
        data, fields["byte_offset"] = base + k * item, (first - k) * item
    if how == 0 and rng.integers(0, 2):
        fields["strides"] = None  # null: compact row-major
    elif rank and rng.integers(0, 4) == 0:
        # A stride along an axis of one element is never stepped: any value
        # is accepted.
        st = list(strides)
        for axis in range(rank):
            if shape[axis] == 1:
                st[axis] = int(rng.integers(-(2**63), 2**63 - 1, endpoint=True))
        fields["strides"] = st
    if rank >= 2 and rng.integers(0, 12) == 0:
        # No element: the first axis (the functions' outer loop) empty, the
        # others as large as int64 goes, with any strides; accepted.
        shape = [0] + [int(rng.integers(1, 2**63 - 1, endpoint=True)) for _ in range(rank - 1)]
        shape_field, size = list(shape), 0
        fields["strides"] = [int(rng.integers(-(2**63), 2**63 - 1, endpoint=True)) for _ in range(rank)]
        view = np.zeros([0] * rank, dtype)
    fields["versioned"] = bool(rng.integers(0, 4))
    if rng.integers(0, 4) == 0:
        fields["flags"] = int(rng.integers(0, 2**63)) & ~(READ_ONLY | IS_COPIED)
    if rng.integers(0, 4) == 0:
        fields["dlpack_device"] = ABSENT
    elif rng.integers(0, 6) == 0:
        fields["device"] = (int(rng.choice([3, 11])), 0)
    refusals = set()
    if not numpy_dtype_ok(np.dtype(dtype), p.dtype):
        refusals.add(TypeError)
    byte_strides = None if fields["strides"] is None else [s * item for s in fields["strides"]]
    refusals |= layout_violations(shape, byte_strides, p)
    notes = []
    align = alignment(dtype)
    # The corruptions: each adds what the package must raise.
    for _ in range(int(rng.choice([0, 0, 1, 1, 2, 3]))):
        which = int(rng.integers(0, 14))
        if which in notes:
            continue  # each once: two shifts could realign the data
        notes.append(which)
        if which == 0:
            fields["name"] = [b"used_dltensor", b"used_dltensor_versioned", b"dltensor_v2", b""][int(rng.integers(0, 4))]
            refusals.add(TypeError)
        elif which == 1 and fields["versioned"]:
            fields["version"] = (int(rng.choice([0, 2, 3, 2**32 - 1])), int(rng.integers(0, 5)))
            refusals.add(ValueError)
        elif which == 2 and fields["versioned"]:
            fields["flags"] |= int(rng.choice([READ_ONLY, IS_COPIED, READ_ONLY | IS_COPIED]))
            if p.output:
                refusals.add(ValueError)
        elif which == 3:
            fields["device"] = (int(rng.choice([2, 4, 7, 8, 10, 13, 14, 0, -1, 2**31 - 1])), int(rng.integers(0, 4)))
            refusals.add(ValueError)
        elif which == 4:
            answer = [(2, 0), "cpu", (1,), (1, 0, 0), (2**40, 0), 1.5][int(rng.integers(0, 6))]
            fields["dlpack_device"] = answer
            refusals.add(ValueError if answer == (2, 0) else TypeError)
        elif which == 5:
            # Never the parameter's own: the buffer holds elements of
            # `dtype`, and another element size would read past it.
            code_bits = (int(rng.integers(0, 12)), int(rng.choice([0, 1, 8, 16, 32, 64, 128, 255])))
            lanes = int(rng.choice([1, 1, 2, 4, 65535]))
            if code_bits == DTYPES[p.dtype] and lanes == 1:
                lanes = 2
            fields["dtype"] = code_bits + (lanes,)
            refusals.add(TypeError)
        elif which == 6:
            fields["ndim"] = int(rng.choice([rank + 1, rank - 1, rank + 2, 2**31 - 1, -1, -(2**31), 64]))
            if fields["ndim"] != rank:
                refusals.add(ValueError)
        elif which == 7 and rank:
            shape_field = None
            refusals.add(ValueError)
        elif which == 8:
            data, fields["byte_offset"] = None, 0
            if size:
                refusals.add(ValueError)
        elif which == 9 and rank:
            shape_field = list(shape_field or shape)
            shape_field[int(rng.integers(0, rank))] = -int(rng.integers(1, 2**62))
            refusals.add(ValueError)
        elif which == 10 and rank and size:
            # A span past 2**63 bytes (never a size-0 view: its loops
            # would run that long).
            axis = int(rng.integers(0, rank))
            shape_field = list(shape_field or shape)
            shape_field[axis] = 2**62 + int(rng.integers(0, 1000))
            st = list(fields["strides"] or strides)
            st[axis] = int(rng.choice([1, -1])) * int(rng.integers(2, 1000))
            fields["strides"] = st
            refusals.add(ValueError)
        elif which == 11 and size and data is not None:
            # Past the top of the address space.
            fields["byte_offset"] = TOP - data + int(rng.integers(0, 4)) * item
            refusals.add(ValueError)
        elif which == 12 and size and data is not None and rank and max(shape) > 1:
            # Below address 0: a reversed stride that long.
            axis = int(np.argmax(shape))
            st = list(fields["strides"] or strides)
            st[axis] = -((data + fields["byte_offset"]) // item) - 1 - int(rng.integers(0, 1000))
            fields["strides"] = st
            refusals.add(ValueError)
        elif which == 13 and data is not None and align > 1:
            # Misaligned, by less than an element (the spare element keeps
            # the view in the buffer): accepted, through an aligned copy.
            shift = int(rng.integers(1, align))
            data += shift
            if size:
                view = np.ndarray(shape, dtype, buffer=buf, offset=first * item + shift,
                                  strides=[s * item for s in strides])
    producer = Handmade(data, shape_field, **fields)
    text = (f"handmade data={'null' if data is None else hex(data)} shape={shape_field} fields="
            f"{ {k: v for k, v in fields.items() if k != 'keep'} } corruptions={notes}")
    return array_arg(producer, view, refusals, text, p)


def producer_misbehaving(rng, p):
    """A producer whose `__dlpack__` returns no capsule or raises."""
    class Odd:
        def __init__(self, result):
            self.result = result

        def __dlpack__(self, **kwargs):
            if isinstance(self.result, BaseException):
                raise self.result
            return self.result

        def __dlpack_device__(self):
            return (1, 0)

    result = [42, None, np.arange(3), BufferError("no export"), ValueError("no")][int(rng.integers(0, 5))]
    expected = type(result) if isinstance(result, BaseException) else TypeError
    return Arg(Odd(result), None, {expected}, f"producer returning {result!r}",
               foreign=isinstance(result, BaseException))


def argument(rng, p):
    if not p.array:
        x = scalar_for(rng, p)
        value, refusal = scalar_value(x, p.dtype)
        return Arg(x, value, {refusal} if refusal else set(), f"{type(x).__name__} {x!r}")
    how = int(rng.integers(0, 20))
    if how < 8:
        return numpy_argument(rng, p)
    if how < 12:
        return numpy_producer_argument(rng, p)
    if how < 19:
        return handmade_argument(rng, p)
    return producer_misbehaving(rng, p)


# ---------------------------------------------------------------------------
# Running a case.

def same_value(a, b):
    """Equal values, NaNs equal, of the same dtype."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        return bool(np.array_equal(a, b, equal_nan=True))
    return bool(np.array_equal(a, b))


class Failure(Exception):
    pass


def make_case(seed, case, functions):
    rng = np.random.default_rng([seed, case])
    name = sorted(functions)[int(rng.integers(0, len(functions)))]
    params = functions[name]
    args = [argument(rng, p) for p in params]
    mode = ["positional", "keywords", "tuple"][int(rng.integers(0, 3))]
    if rng.integers(0, 30) == 0:
        mode = ["one too many", "one missing", "an unknown keyword", "one twice"][int(rng.integers(0, 4))]
    return name, params, args, mode


def run_case(seed, case, compiled, oracle, functions, verbose=False):
    """Makes and checks one case; returns the exception type it raised
    (None: it ran) or raises Failure."""
    name, params, args, mode = make_case(seed, case, functions)
    f = compiled[name]
    if verbose:
        print(f"{name}({', '.join(p.name for p in params)}) called {mode}")
        for p, a in zip(params, args):
            print(f"  {p.name}: {a.text} -> refusals {sorted(e.__name__ for e in a.refusals)}")
    refusals = set().union(*(a.refusals for a in args)) if args else set()
    objs = [a.obj for a in args]
    if mode.startswith("one") or mode.startswith("an"):
        # Binding fails before any argument is converted.
        refusals, args = {TypeError}, [Arg(None, None, {TypeError}, mode)]
    try:
        if mode == "positional":
            result = f(*objs)
        elif mode == "keywords":
            k = len(objs) // 2
            result = f(*objs[:k], **{p.name: o for p, o in zip(params[k:], objs[k:])})
        elif mode == "tuple":
            result = type(f).__call__(f, *objs)
        elif mode == "one too many":
            result = f(*objs, 1)
        elif mode == "one missing":
            result = f(*objs[:-1])
        elif mode == "an unknown keyword":
            result = f(*objs, nothing=1)
        else:
            result = f(*objs, **{params[0].name: objs[0]})
        raised = None
    except (TypeError, ValueError, OverflowError, BufferError) as e:
        raised = e
    if raised is not None:
        if not refusals:
            raise Failure(f"{name}: the rules accept every argument, the call raised "
                          f"{type(raised).__name__}: {raised}")
        if not isinstance(raised, tuple(refusals)):
            raise Failure(f"{name}: raised {type(raised).__name__}: {raised}; the rules allow "
                          f"{sorted(e.__name__ for e in refusals)}")
        foreign = any(a.foreign for a in args)
        if not foreign and not str(raised).startswith(f"{name}()"):
            raise Failure(f"{name}: the message does not name the function: {raised}")
        if verbose:
            print(f"  raised {type(raised).__name__}: {raised}")
        return type(raised)
    if refusals:
        raise Failure(f"{name}: ran, returning {result!r}; the rules refuse it with "
                      f"{sorted(e.__name__ for e in refusals)}")
    with np.errstate(all="ignore"):
        want = getattr(oracle, name)(*[a.oracle for a in args])
    if name == "same_2":
        if result is not objs[0]:
            raise Failure(f"{name}: returned {type(result).__name__}, not the argument itself")
    elif not same_value(result, want):
        raise Failure(f"{name}: returned {result!r}, CPython returns {want!r}")
    if name.startswith("as_") and np.asarray(result).dtype != np.asarray(args[0].oracle).dtype:
        raise Failure(f"{name}: returned a {np.asarray(result).dtype}, not a {np.asarray(args[0].oracle).dtype}")
    for p, a in zip(params, args):
        if a.written is not None and not same_value(a.written, a.oracle):
            raise Failure(f"{name}: output `{p.name}` holds {a.written.tolist()}, CPython wrote {a.oracle.tolist()}")
    if verbose:
        print(f"  ran: {result!r}")
    return None


def load():
    """The compiled module's functions and their parameters, and the oracle."""
    import postc

    module = postc.compile(SIGNATURES)
    compiled = {n: module[n] for n in module.exports()}
    functions = {n: [Param(a, t) for a, t in f.parameters] for n, f in compiled.items()}
    spec = importlib.util.spec_from_file_location("signatures_under_cpython", SIGNATURES)
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)
    return compiled, oracle, functions


def worker(seed, cases):
    compiled, oracle, functions = load()
    if seed % 2:
        # Another Python thread: calls release the GIL (the other path).
        import threading

        threading.Thread(target=lambda: time.sleep(3600), daemon=True).start()
    counts = {}
    for case in range(cases):
        print(f"CASE {seed}:{case}", flush=True)
        try:
            outcome = run_case(seed, case, compiled, oracle, functions)
        except Failure as e:
            print(f"FAIL {seed}:{case} {e}", flush=True)
            sys.exit(3)
        except Exception:
            print(f"FAIL {seed}:{case} the fuzzer itself raised:\n{traceback.format_exc()}", flush=True)
            sys.exit(3)
        key = "ran" if outcome is None else outcome.__name__
        counts[key] = counts.get(key, 0) + 1
    print("DONE " + " ".join(f"{k}={v}" for k, v in sorted(counts.items())), flush=True)


def parent(seconds, seed, batch, timeout):
    env = dict(os.environ)
    if "POSTC_CACHE_DIR" not in env:
        env["POSTC_CACHE_DIR"] = tempfile.mkdtemp(prefix="postc-fuzz-")
    os.environ.update(env)
    load()  # compiles once; workers load the cached library
    rng = np.random.default_rng(seed)
    start = time.monotonic()
    totals, problems, batches = {}, [], 0
    while time.monotonic() - start < seconds:
        s = int(rng.integers(0, 2**31))
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--seed", str(s), "--cases", str(batch)]
        try:
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
            lines, rc = out.stdout.splitlines(), out.returncode
            stderr = out.stderr
        except subprocess.TimeoutExpired as e:
            lines, rc = (e.stdout or b"").decode().splitlines() if isinstance(e.stdout, bytes) else (e.stdout or "").splitlines(), "timeout"
            stderr = ""
        batches += 1
        cases = [ln for ln in lines if ln.startswith("CASE ")]
        done = [ln for ln in lines if ln.startswith("DONE")]
        if rc == 0 and done:
            for kv in done[0].split()[1:]:
                k, v = kv.split("=")
                totals[k] = totals.get(k, 0) + int(v)
            continue
        last = cases[-1].split()[1] if cases else f"{s}:?"
        fail = [ln for ln in lines if ln.startswith("FAIL")]
        if fail:
            what = "\n".join(lines[lines.index(fail[0]):])
        elif rc == "timeout":
            what = f"no answer within {timeout} s"
        else:
            what = f"the interpreter died (status {rc})\n{stderr[-3000:]}"
        problems.append(last)
        print(f"case {last}: {what}\nreplay: python {os.path.relpath(__file__)} --replay {last}\n", flush=True)
        # The cases before it ran.
        totals["ran/refused before a problem"] = totals.get("ran/refused before a problem", 0) + max(len(cases) - 1, 0)
    elapsed = time.monotonic() - start
    total = sum(totals.values())
    print(f"{total} cases in {batches} batches, {elapsed:.0f} s: "
          + ", ".join(f"{k} {v}" for k, v in sorted(totals.items())))
    if problems:
        print(f"{len(problems)} problem(s): {' '.join(problems)}")
        return 1
    print("no crash, every case as the rules say")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60, help="how long to run (default 60)")
    ap.add_argument("--seed", type=int, default=None, help="the seed of the batch seeds (default: random)")
    ap.add_argument("--batch", type=int, default=2000, help="cases per subprocess (default 2000)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds a batch may take (default 300)")
    ap.add_argument("--replay", metavar="SEED:CASE", help="run one case, printing it")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--cases", type=int, default=2000, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.seed, args.cases)
        return 0
    if args.replay:
        seed, case = (int(x) for x in args.replay.split(":"))
        compiled, oracle, functions = load()
        try:
            run_case(seed, case, compiled, oracle, functions, verbose=True)
        except Failure as e:
            print(f"FAIL {e}")
            return 1
        return 0
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"seed {seed}", flush=True)
    return parent(args.seconds, seed, args.batch, args.timeout)


if __name__ == "__main__":
    sys.exit(main())
