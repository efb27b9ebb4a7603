#!/usr/bin/env python3
"""Expected results for the POST Python programs in this directory.

POST Python is defined by CPython: every program here imports and runs
unchanged under CPython with the pure-Python parts of the `postc` package
(`python/`: `postyp`, `postc`, `postc.math`) on the path, and the compiled code must
give the same results. This script runs each program's cases under CPython
and writes `<program>.expected` (for `geom/vec.py`: `geom/vec.expected`) in
the format of `tests/programs/README.md`. README.md here lists the
programs, the rules they follow and where panics are located.

    python3 tests/py/oracle.py          # rewrite the .expected files
    python3 tests/py/oracle.py --check  # exit 1 if any file is stale

Scalar arguments are NumPy scalars of the parameter's dtype, Str/Bytes are
str/bytes, arrays are NumPy arrays (some of them strided views). Calls run
under np.errstate(divide="raise", over="ignore", invalid="ignore",
under="ignore"). A Python exception becomes a `panic` line: its message
mapped to POST's and its location the one CPython reports for the failing
instruction (see README.md). Every case is also re-run twice as a check:
with over="raise" (an integer overflow in CPython would silently differ
from POST, which wraps or panics) and with `empty()` filling new arrays
with garbage (a read before a write would show).
"""

import ast
import builtins
import contextlib
import dis
import importlib
import io
import math
import os
import re
import sys
import types
import typing
import zlib

sys.dont_write_bytecode = True  # leave no __pycache__ beside the programs

HERE = os.path.dirname(os.path.abspath(__file__))
STUBS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "python")  # the postc package
sys.path[:0] = [STUBS, HERE]

import numpy as np  # noqa: E402

import postc  # noqa: E402

sys.path.insert(0, os.path.dirname(HERE))
from expected_text import fmt_bytes, fmt_float, fmt_str, memory_values, root_of  # noqa: E402
import postyp  # noqa: E402
from postyp import INT_RANGES, ArrayType, OutType, dtype_of  # noqa: E402

# The path the compiler is given for a program: panics name it.
REL = "tests/py/"

FLOATS = ("Float16", "Float32", "Float64")
COMPLEXES = ("Complex64", "Complex128")
DTYPE_OF_NP = {np.dtype(d.np): d.name for d in postyp.ALL if d.np is not None}


class OracleError(Exception):
    """A case or program that breaks the rules (not a POST panic)."""


# ---------------------------------------------------------------------------
# Values and their text (the format of tests/programs/README.md).


def same_float(a, b):
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def convert(dt, v, what):
    """`v` as a value of dtype `dt`, refusing any change of value (and any
    float or complex NumPy scalar of another dtype: that would mean CPython
    computed in another precision than POST does)."""
    if dt == "Bool":
        if not isinstance(v, (bool, np.bool_)):
            raise OracleError(f"{what}: expected a Bool, got {type(v).__name__} {v!r}")
        return bool(v)
    if dt in INT_RANGES:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise OracleError(f"{what}: expected {dt}, got {type(v).__name__} {v!r}")
        lo, hi = INT_RANGES[dt]
        if not lo <= int(v) <= hi:
            raise OracleError(f"{what}: {v} is out of range for {dt}")
        return int(v)
    if dt in FLOATS:
        np_t = getattr(postyp, dt).np
        if isinstance(v, np.generic):
            if type(v) is not np_t:
                raise OracleError(f"{what}: expected {dt}, got {type(v).__name__} {v!r}")
        elif isinstance(v, int) and not isinstance(v, bool) and dt == "Float64" and float(v) == v:
            # A local that POST widens to Float64 can still hold a Python
            # int in CPython (`x = 1` then `x = x * 0.5` in a loop that
            # did not run): same value.
            return float(v)
        elif not isinstance(v, float) or dt != "Float64":
            raise OracleError(f"{what}: expected {dt}, got {type(v).__name__} {v!r}")
        return float(v)
    if dt in COMPLEXES:
        np_t = getattr(postyp, dt).np
        if isinstance(v, np.generic):
            if type(v) is not np_t:
                raise OracleError(f"{what}: expected {dt}, got {type(v).__name__} {v!r}")
        elif not isinstance(v, complex) or dt != "Complex128":
            raise OracleError(f"{what}: expected {dt}, got {type(v).__name__} {v!r}")
        return complex(v)
    if dt == "Str":
        if not isinstance(v, str):
            raise OracleError(f"{what}: expected Str, got {type(v).__name__}")
        return v
    if dt == "Bytes":
        if not isinstance(v, bytes):
            raise OracleError(f"{what}: expected Bytes, got {type(v).__name__}")
        return v
    raise OracleError(f"{what}: unknown dtype {dt}")


def fmt_scalar(dt, v):
    if dt == "Bool":
        return "true" if v else "false"
    if dt in INT_RANGES:
        v = int(v)
        lo, hi = INT_RANGES[dt]
        assert lo <= v <= hi, (dt, v)
        return str(v)
    if dt in FLOATS:
        x = float(v)
        assert math.isnan(x) or float(getattr(postyp, dt).np(x)) == x, (dt, v)
        return fmt_float(x)
    if dt in COMPLEXES:
        z = complex(v)
        part = np.float32 if dt == "Complex64" else np.float64
        for p in (z.real, z.imag):
            assert math.isnan(p) or float(part(p)) == p, (dt, v)
        return fmt_float(z.real) + "," + fmt_float(z.imag)
    if dt == "Str":
        return fmt_str(v)
    if dt == "Bytes":
        return fmt_bytes(v)
    raise ValueError(dt)


def fmt_array(a):
    """`DTYPE[] shape=.. strides=.. offset=.. buf=N : values in memory order`."""
    dt = DTYPE_OF_NP[a.dtype]
    r = root_of(a)
    off = a.__array_interface__["data"][0] - r.__array_interface__["data"][0]
    shape = ",".join(str(d) for d in a.shape)
    strides = ",".join(str(s) for s in a.strides)
    vals = " ".join(fmt_scalar(dt, v) for v in memory_values(r))
    return f"{dt}[] shape={shape} strides={strides} offset={off} buf={r.size} : {vals}".rstrip()


def logical_values(dt, a):
    return " ".join(fmt_scalar(dt, v) for v in np.asarray(a).reshape(-1, order="C"))


def copy_view(a):
    """A fresh buffer equal to a's root, and the same view of it."""
    r = root_of(a)
    rc = r.copy(order="A")
    off = a.__array_interface__["data"][0] - r.__array_interface__["data"][0]
    flat = rc.reshape(-1, order="A")
    v = np.lib.stride_tricks.as_strided(flat[off // r.itemsize:], shape=a.shape, strides=a.strides)
    # as_strided of a view keeps `flat` (and so rc) as its base chain.
    return rc, v


# ---------------------------------------------------------------------------
# Cases.


class Case:
    def __init__(self, name, func, args, tol=None, allow_over=False):
        self.name = name
        self.func = func
        self.args = list(args)
        self.tol = tol
        self.allow_over = allow_over  # float overflow to inf is intended


def C(name, func, *args, tol=None, allow_over=False):
    return Case(name, func, args, tol=tol, allow_over=allow_over)


PROGRAMS = {}


def program(modname):
    def deco(fn):
        PROGRAMS[modname] = fn
        return fn

    return deco


def module_path(modname):
    return os.path.join(HERE, *modname.split(".")) + ".py"


def rel_path(filename):
    return REL + os.path.relpath(os.path.abspath(filename), HERE).replace(os.sep, "/")


def is_program_file(filename):
    f = os.path.abspath(filename)
    return f.startswith(HERE + os.sep) and not f.startswith(STUBS + os.sep) and f != os.path.abspath(__file__)


def tuple_elements(annotation):
    """The element annotations of `tuple[A, B]` (or `typing.Tuple`), else
    None."""
    if getattr(annotation, "__origin__", None) is tuple:
        return list(annotation.__args__)
    return None


def maybe_none_inner(annotation):
    """The `T` of `T | None` (`Optional[T]`), else None."""
    args = getattr(annotation, "__args__", None)
    union = getattr(annotation, "__origin__", None) is typing.Union or isinstance(annotation, types.UnionType)
    if union and len(args) == 2 and type(None) in args:
        return args[0] if args[1] is type(None) else args[1]
    return None


def maybe_none_lines(d, v, what, kind):
    """The two lines of a scalar that may be None (`arg` or `ret`): its
    presence flag, then its value (zero for None), as the IR passes it."""
    if v is None:
        zero = {"b": False, "f": 0.0}.get(d.kind, 0)
        return [f"{kind} Bool false", f"{kind} {d.name} {fmt_scalar(d.name, zero)}"]
    return [f"{kind} Bool true", f"{kind} {d.name} {fmt_scalar(d.name, convert(d.name, v, what))}"]


def param_types(py):
    names = list(py.__code__.co_varnames[: py.__code__.co_argcount])
    ann = py.__annotations__
    for p in names:
        if p not in ann:
            raise OracleError(f"{py.__name__}: parameter {p} has no annotation")
    return names, [ann[p] for p in names], ann.get("return")


def scalar_arg(d, v, what):
    """A case's scalar value as the argument CPython gets."""
    if d.kind == "str":
        if not isinstance(v, str):
            raise OracleError(f"{what}: Str argument must be a str")
        return v
    if d.kind == "bytes":
        if not isinstance(v, bytes):
            raise OracleError(f"{what}: Bytes argument must be bytes")
        return v
    if d.kind == "b":
        if not isinstance(v, (bool, np.bool_)):
            raise OracleError(f"{what}: Bool argument must be a bool")
        return np.bool_(v)
    if d.kind in "iu":
        if not isinstance(v, (int, np.integer)) or isinstance(v, (bool, np.bool_)):
            raise OracleError(f"{what}: {d.name} argument must be an int")
        lo, hi = INT_RANGES[d.name]
        if not lo <= int(v) <= hi:
            raise OracleError(f"{what}: {v} out of range for {d.name}")
        return d.np(int(v))
    if d.kind == "f":
        r = d.np(v)
        if not (isinstance(v, np.generic) and type(v) is d.np) and not same_float(float(r), float(v)):
            raise OracleError(f"{what}: {v!r} is not exactly a {d.name}; round it first")
        return r
    if d.kind == "c":
        r = d.np(v)
        z = complex(v)
        exact = same_float(r.real, z.real) and same_float(r.imag, z.imag)
        if not exact and not (isinstance(v, np.generic) and type(v) is d.np):
            raise OracleError(f"{what}: {v!r} is not exactly a {d.name}")
        return r
    raise OracleError(what)


def check_array(a, t, what, ufunc_core=None):
    if not isinstance(a, np.ndarray):
        raise OracleError(f"{what}: expected an array")
    if a.dtype != np.dtype(t.dtype.np):
        raise OracleError(f"{what}: array dtype {a.dtype} is not {t.dtype.name}")
    if ufunc_core is None:
        if a.ndim != t.ndim:
            raise OracleError(f"{what}: array has {a.ndim} dims, the parameter {t.ndim}")
        if t.static:
            if tuple(a.shape) != t.dims:
                raise OracleError(f"{what}: static shape {t.dims} given {a.shape}")
            ok = a.flags.f_contiguous if t.layout == "F" else a.flags.c_contiguous
            if not ok:
                raise OracleError(f"{what}: a static-shape parameter needs a contiguous {t.layout}-order array")
    elif a.ndim < ufunc_core:
        raise OracleError(f"{what}: array has fewer dims than the core")


def prepare(case, fn):
    """(kind, py function, [(text, value passed, out index or None)], ret dtype)."""
    is_ufunc = isinstance(fn, postc.UFunc)
    py = fn.py_func if is_ufunc else fn
    names, types, ret = param_types(py)
    if len(case.args) != len(names):
        raise OracleError(f"{case.name}: {py.__name__} takes {len(names)} arguments, case gives {len(case.args)}")
    cores = (fn.core_in + ([] if fn.returns else fn.core_out)) if is_ufunc else None
    lines, passed, outputs = [], [], []
    for i, (p, t, v) in enumerate(zip(names, types, case.args)):
        what = f"{case.name}: argument {i} ({p})"
        if getattr(t, "__origin__", None) is type:
            # A dtype fixed when compiled (`type[Float32]`): CPython gets
            # it, the IR has no argument for it.
            d = t.__args__[0]
            if np.dtype(v) != np.dtype(d.np):
                raise OracleError(f"{what}: {v!r} is not the dtype {d.name}")
            passed.append(v)
            continue
        inner = maybe_none_inner(t)
        if inner is not None and isinstance(inner, ArrayType):
            # An array that may be None: its flag, then the array (an
            # empty one of its dtype and rank for None, as callers pass).
            if v is None:
                lines += ["arg Bool false", "arg " + fmt_array(np.empty((0,) * inner.ndim, inner.dtype.np))]
                passed.append(None)
                continue
            check_array(v, inner, what)
            root, view = copy_view(v)
            lines += ["arg Bool true", "arg " + fmt_array(v)]
            passed.append(view)
            continue
        if inner is not None and tuple_elements(inner):
            # A tuple that may be None: its flag, then each element (zeros
            # for None).
            ds = [dtype_of(e) for e in tuple_elements(inner)]
            if v is None:
                lines.append("arg Bool false")
                lines += [f"arg {d.name} {fmt_scalar(d.name, {'b': False, 'f': 0.0}.get(d.kind, 0))}" for d in ds]
                passed.append(None)
                continue
            if not isinstance(v, tuple) or len(v) != len(ds):
                raise OracleError(f"{what}: expected a tuple of {len(ds)}")
            svs = tuple(scalar_arg(d, x, what) for d, x in zip(ds, v))
            lines.append("arg Bool true")
            lines += [f"arg {d.name} {fmt_scalar(d.name, x)}" for d, x in zip(ds, svs)]
            passed.append(svs)
            continue
        if tuple_elements(t):
            ds = [dtype_of(e) for e in tuple_elements(t)]
            if not isinstance(v, tuple) or len(v) != len(ds):
                raise OracleError(f"{what}: expected a tuple of {len(ds)}")
            svs = tuple(scalar_arg(d, x, what) for d, x in zip(ds, v))
            lines += [f"arg {d.name} {fmt_scalar(d.name, x)}" for d, x in zip(ds, svs)]
            passed.append(svs)
            continue
        if inner is not None:
            d = dtype_of(inner)
            sv = None if v is None else scalar_arg(d, v, what)
            lines += maybe_none_lines(d, sv, what, "arg")
            passed.append(sv)
            continue
        out = isinstance(t, OutType)
        if out:
            t = t.inner
        d = dtype_of(t)
        if isinstance(t, ArrayType) or (is_ufunc and isinstance(v, np.ndarray)):
            core = len(cores[i]) if is_ufunc else None
            if isinstance(t, ArrayType):
                check_array(v, t, what, core)
            else:
                check_array(v, ArrayType(d, [None] * v.ndim, "C"), what, 0)
            root, view = copy_view(v)
            lines.append("arg " + fmt_array(v))
            passed.append(view)
            if out:
                outputs.append((i, root, view))
        elif d is not None:
            if out:
                raise OracleError(f"{what}: Out[] of a scalar")
            sv = scalar_arg(d, v, what)
            lines.append(f"arg {d.name} {fmt_scalar(d.name, sv)}")
            passed.append(sv)
        else:
            raise OracleError(f"{what}: unsupported annotation {t!r}")
    if is_ufunc:
        rd = fn.ret_dtype.name if fn.returns else None
    elif tuple_elements(ret):
        rd = "tuple"
    elif maybe_none_inner(ret) is not None:
        rd = "maybe none"
    else:
        rd = None if ret is None else (ret.dtype if isinstance(ret, ArrayType) else dtype_of(ret))
        if ret is not None and rd is None:
            raise OracleError(f"{py.__name__}: unsupported return annotation {ret!r}")
        rd = None if rd is None else rd.name
    return ("ufunc" if is_ufunc else "call"), py, lines, passed, outputs, rd


# ---------------------------------------------------------------------------
# Panics: CPython's exception -> POST's message and location.

_sources = {}


def source_tree(filename):
    if filename not in _sources:
        with open(filename, encoding="ascii") as f:
            _sources[filename] = ast.parse(f.read(), filename)
    return _sources[filename]


def panic_location(exc):
    tb = exc.__traceback__
    last = None
    while tb is not None:
        if is_program_file(tb.tb_frame.f_code.co_filename):
            last = tb
        tb = tb.tb_next
    if last is None:
        raise OracleError(f"exception outside the programs: {exc!r}")
    code = last.tb_frame.f_code
    line, _end_line, col, _end_col = list(code.co_positions())[last.tb_lasti // 2]
    instr = next((ins for ins in dis.get_instructions(code) if ins.offset == last.tb_lasti), None)
    if isinstance(exc, AssertionError):
        # CPython 3.11 reports the last comparison of the condition (3.12
        # and later the statement); POST locates a failed assert at its
        # `assert` keyword, so take the statement that holds that position.
        stmt = None
        for node in ast.walk(source_tree(code.co_filename)):
            if isinstance(node, ast.Assert) and node.lineno <= line <= node.end_lineno:
                if stmt is None or node.lineno >= stmt.lineno:
                    stmt = node
        if stmt is None:
            raise OracleError(f"no assert statement at {code.co_filename}:{line}")
        line, col = stmt.lineno, stmt.col_offset
    return rel_path(code.co_filename), line, col + 1, instr


# CPython's ZeroDivisionError messages for Python floats, complex numbers
# and int true division, which POST gives as they are.
_PYTHON_NUMBER_ZERO_DIVISION = (
    "float division by zero",
    "float floor division by zero",
    "float modulo",
    "complex division by zero",
    "division by zero",
    "0.0 cannot be raised to a negative power",
)

_BINARY_OP = {2: "//", 15: "//", 6: "%", 19: "%", 11: "/", 24: "/"}


_MATH_ERRORS = (
    "math domain error",
    "math range error",
    "cannot convert float NaN to integer",
    "cannot convert float infinity to integer",
)


def panic_message(exc, instr):
    if instr is not None and instr.opname == "RAISE_VARARGS" and not isinstance(exc, AssertionError):
        # A `raise` of a built-in exception: POST's message names it (the
        # programs raise AssertionError only by `assert`, which CPython
        # lowers to the same instruction).
        name = type(exc).__name__
        return f"{name}: {exc.args[0]}" if exc.args else name
    # NumPy's AxisError is an IndexError (and a ValueError) too.
    if type(exc).__name__ == "AxisError" and re.fullmatch(r"axis -?\d+ is out of bounds for array of dimension \d+",
                                                           str(exc)):
        return "AxisError: " + str(exc)
    if isinstance(exc, IndexError) and str(exc) in ("tuple index out of range", "list index out of range"):
        return "IndexError: " + str(exc)
    if isinstance(exc, IndexError) and str(exc).startswith("boolean index did not match indexed array"):
        return "IndexError: " + str(exc)
    if isinstance(exc, IndexError):
        m = re.fullmatch(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)", str(exc))
        if not m:
            raise OracleError(f"unexpected IndexError: {exc}")
        i, axis, size = int(m.group(1)), int(m.group(2)), int(m.group(3))
        j = i + size if i < 0 else i
        return f"index out of bounds: index {j} is out of range for axis {axis} with size {size}"
    if isinstance(exc, (ZeroDivisionError, FloatingPointError)):
        if isinstance(exc, FloatingPointError) and not re.fullmatch(
            r"divide by zero encountered in scalar (floor_divide|remainder)", str(exc)
        ):
            raise OracleError(f"unexpected floating-point error: {exc}")
        if isinstance(exc, ZeroDivisionError) and str(exc) in _PYTHON_NUMBER_ZERO_DIVISION:
            # Python numbers: POST raises CPython's own message.
            return str(exc)
        op = _BINARY_OP.get(instr.arg) if instr is not None and instr.opname == "BINARY_OP" else None
        if op == "//":
            return "division by zero"
        if op == "%":
            return "modulo by zero"
        raise OracleError(f"division by zero outside // and %: {exc} at {instr}")
    if isinstance(exc, AssertionError):
        return f"assertion failed: {exc.args[0]}" if exc.args else "assertion failed"
    if isinstance(exc, UnboundLocalError):
        # CPython's message, named as a raised exception's is.
        return f"UnboundLocalError: {exc}"
    if isinstance(exc, (ValueError, OverflowError)) and str(exc) in _MATH_ERRORS:
        # Python's math module: the same exception and message.
        return f"{type(exc).__name__}: {exc}"
    if isinstance(exc, OverflowError):
        # A Python int that does not fit the NumPy integer it meets; the
        # compiled message leaves out the value.
        m = re.fullmatch(r"Python integer -?\d+ out of bounds for (\w+)", str(exc))
        if not m:
            raise OracleError(f"unexpected OverflowError: {exc}")
        return f"OverflowError: Python integer out of bounds for {m.group(1)}"
    if isinstance(exc, ValueError) and (
        re.fullmatch(r"shape mismatch: value array of shape \S+ could not be broadcast to indexing result of shape \S+",
                     str(exc))
        or re.fullmatch(r"NumPy boolean array indexing assignment cannot assign \d+ input values to the \d+ output "
                        r"values where the mask is true", str(exc))
        or re.fullmatch(r"Number of samples, -\d+, must be non-negative\.", str(exc))
    ):
        return "ValueError: " + str(exc)
    if isinstance(exc, ValueError) and str(exc) in ("range() arg 3 must not be zero", "negative shift count"):
        return str(exc)
    if isinstance(exc, ValueError) and (
        re.fullmatch(r"zero-size array to reduction operation (minimum|maximum|fmin|fmax) which has no identity", str(exc))
        or str(exc) == "All-NaN slice encountered"
        or re.fullmatch(r"attempt to get arg(min|max) of an empty sequence", str(exc))
        or str(exc) in ("negative dimensions are not allowed", "slice step cannot be zero")
        or str(exc) == "can only specify one unknown dimension"
        or re.fullmatch(r"too many values to unpack \(expected \d+\)", str(exc))
        or re.fullmatch(r"not enough values to unpack \(expected \d+, got \d+\)", str(exc))
        or re.fullmatch(r"cannot reshape array of size \d+ into shape \(((\d+|newaxis)(,(\d+|newaxis))*,?)?\)", str(exc))
        or re.fullmatch(r"could not broadcast input array from shape \([\d, ]*\) into shape \([\d, ]*\)", str(exc))
        or re.fullmatch(r"operands could not be broadcast together with shapes (\([\d,]*\) )+", str(exc))
        or re.fullmatch(r"shapes \(\d+,(\d+)?\) and \(\d+,(\d+)?\) not aligned: \d+ \(dim \d\) != \d+ \(dim 0\)", str(exc))
        or re.fullmatch(r"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                        r"\(n\?,k\),\(k,m\?\)->\(n\?,m\?\) \(size \d+ is different from \d+\)", str(exc))
        or re.fullmatch(r"non-broadcastable output operand with shape \([\d,]*\) doesn't match the broadcast shape \([\d,]*\)", str(exc))
        or str(exc) == "incompatible dimensions for cross product\n(dimension must be 2 or 3)"
    ):
        # NumPy's errors, which compiled code raises as the same ValueError.
        return "ValueError: " + str(exc)
    if isinstance(exc, ValueError) and (
        str(exc) in ("`bins` must be positive, when an integer", "max must be larger than min in range parameter.",
                     "`bins` must increase monotonically, when an array")
        or re.fullmatch(r"(supplied|autodetected) range of \[-?(\d+(\.\d+)?|nan|inf), -?(\d+(\.\d+)?|nan|inf)\] "
                        r"is not finite", str(exc))
        or re.fullmatch(r"Too many bins for data range\. Cannot create \d+ finite-sized bins\.", str(exc))
    ):
        # np.histogram's errors; the edges compiled code writes as NumPy
        # does (integers, integral floats, nan and infinities).
        return "ValueError: " + str(exc)
    if isinstance(exc, ValueError) and re.fullmatch(r"kth\(=-?\d+\) out of bounds \(\d+\)", str(exc)):
        return "ValueError: " + str(exc)
    if type(exc).__name__ == "LinAlgError" and str(exc) == "Last 2 dimensions of the array must be square":
        return "LinAlgError: " + str(exc)
    raise OracleError(f"unexpected exception {type(exc).__name__}: {exc}")


# ---------------------------------------------------------------------------
# Running a case.


class _Garbage:
    """`empty()` fill for the read-before-write check."""

    def __call__(self, np_type):
        t = np.dtype(np_type)
        if t.kind == "f":
            return np.nan
        if t.kind == "c":
            return complex(np.nan, np.nan)
        if t.kind == "b":
            return True
        if t.kind == "u":
            return np.iinfo(t).max - 3
        return np.iinfo(t).min + 5


def ret_line(t, x, what):
    """The `ret` line of a tuple element `x` of annotation `t`."""
    if isinstance(t, ArrayType):
        d = t.dtype.name
        if not isinstance(x, np.ndarray) or DTYPE_OF_NP.get(x.dtype) != d or x.ndim != t.ndim:
            raise OracleError(f"{what}: returned {x!r}, not a {t.ndim}-D array of {d}")
        shape = ",".join(str(n) for n in x.shape)
        return f"ret {d}[] shape={shape} : {logical_values(d, x)}".rstrip()
    d = dtype_of(t)
    if d is None:
        raise OracleError(f"{what}: unsupported annotation {t!r}")
    return f"ret {d.name} {fmt_scalar(d.name, convert(d.name, x, what))}"


def run_case(case, mod, over="ignore", garbage=False):
    fn = getattr(mod, case.func, None)
    if fn is None:
        raise OracleError(f"{case.name}: {mod.__name__} has no function {case.func}")
    kind, py, arg_lines, passed, outputs, rd = prepare(case, fn)
    postc._EMPTY_FILL = _Garbage() if garbage else None
    printed = io.StringIO()
    try:
        with np.errstate(divide="raise", over=over, invalid="ignore", under="ignore"), \
                contextlib.redirect_stdout(printed):
            ret = fn(*passed)
        result = ("ok", ret)
    except OracleError:
        raise
    except FloatingPointError as e:
        if "overflow" in str(e):
            raise OracleError(f"{case.name}: overflow under over='raise' ({e}); an integer overflow "
                              "differs from POST, a float one needs allow_over=True")
        result = ("panic", e)
    except (IndexError, ZeroDivisionError, AssertionError, ValueError, NotImplementedError, OverflowError,
            UnboundLocalError) as e:
        result = ("panic", e)
    finally:
        postc._EMPTY_FILL = None
    lines = [f"case {case.name}", f"{kind} {case.func}", "mode both"]
    if case.tol:
        lines.append(f"tol {case.tol}")
    lines += arg_lines
    if result[0] == "panic":
        exc = result[1]
        f, line, col, instr = panic_location(exc)
        lines.append(f"panic {fmt_str(panic_message(exc, instr))} at {f}:{line}:{col}")
        return lines
    ret = result[1]
    what = f"{case.name}: result of {case.func}"
    fn_ret = fn.__annotations__.get("return") if kind == "call" else None
    if rd == "tuple":
        # One `ret` line per element, each checked as a single result is.
        elements = tuple_elements(fn_ret)
        if not isinstance(ret, tuple) or len(ret) != len(elements):
            raise OracleError(f"{what}: returned {ret!r}, not a tuple of {len(elements)}")
        for k, (t, x) in enumerate(zip(elements, ret)):
            lines.append(ret_line(t, x, f"{what}, element {k}"))
    elif rd == "maybe none":
        # Two `ret` lines: whether there is a value, and the value.
        lines += maybe_none_lines(dtype_of(maybe_none_inner(fn_ret)), ret, what, "ret")
    elif isinstance(fn_ret, ArrayType) and rd is not None:
        if not isinstance(ret, np.ndarray) or DTYPE_OF_NP.get(ret.dtype) != rd or ret.ndim != fn_ret.ndim:
            raise OracleError(f"{what}: returned {ret!r}, not a {fn_ret.ndim}-D array of {rd}")
        shape = ",".join(str(d) for d in ret.shape)
        lines.append(f"ret {rd}[] shape={shape} : {logical_values(rd, ret)}".rstrip())
    elif kind == "ufunc" and rd is not None:
        if not isinstance(ret, np.ndarray):
            raise OracleError(f"{what}: a ufunc case needs an array result (give an array operand)")
        shape = ",".join(str(d) for d in ret.shape)
        lines.append(f"ret {rd}[] shape={shape} : {logical_values(rd, ret)}".rstrip())
    elif rd is None:
        if ret is not None:
            raise OracleError(f"{what}: a void function returned {ret!r}")
        lines.append("ret void")
    else:
        lines.append(f"ret {rd} {fmt_scalar(rd, convert(rd, ret, what))}")
    for i, root, view in outputs:
        dt = DTYPE_OF_NP[view.dtype]
        lines.append(f"out {i} : {logical_values(dt, view)}".rstrip())
        if view.size != root.size:
            lines.append(("buf %d : " % i + " ".join(fmt_scalar(dt, v) for v in memory_values(root))).rstrip())
    if printed.getvalue():
        lines.append(f"stdout {fmt_str(printed.getvalue())}")
    return lines


def _int64_results(f):
    """`f`, raising where it makes a Python int beyond Int64: compiled code
    holds Python ints in Int64, and where CPython's `int(x)`, `round(x)`,
    `math.floor(x)`, `math.ceil(x)` or `math.trunc(x)` of a float would be
    larger it panics with the OverflowError NumPy raises when such an int
    meets an Int64, located at the call (README.md)."""

    def checked(*args):
        r = f(*args)
        if isinstance(r, int) and not isinstance(r, bool) and not -(2**63) <= r < 2**63:
            raise OverflowError(f"Python integer {r} out of bounds for int64")
        return r

    return checked


_INT_MAKERS = {math.floor: "floor", math.ceil: "ceil", math.trunc: "trunc"}


# The programs whose cases make Python ints of floats beyond Int64 (where
# compiled code panics); elsewhere such a result is an OracleError.
LIMITED_PYTHON_INTS = {"float_to_int"}


def limit_python_ints(mod):
    """Makes `mod`'s `int`, `round` and `math.floor`/`ceil`/`trunc` (as
    `math.NAME` or imported by name) raise where they would make a Python
    int beyond Int64, as compiled code does. (`int` is then a function,
    not a type: not for a program that passes it as a dtype.)"""
    for name in ("int", "round"):
        setattr(mod, name, _int64_results(getattr(builtins, name)))
    for name, value in list(vars(mod).items()):
        if value is math:
            ns = type(math)("math")
            ns.__dict__.update(vars(math))
            for f, fname in _INT_MAKERS.items():
                setattr(ns, fname, _int64_results(f))
            setattr(mod, name, ns)
        elif callable(value) and any(value is f for f in _INT_MAKERS):
            setattr(mod, name, _int64_results(value))


def render_program(modname):
    global rng
    mod = importlib.import_module(modname)
    if modname in LIMITED_PYTHON_INTS:
        limit_python_ints(mod)
    rng = np.random.default_rng(zlib.crc32(modname.encode()))
    cases = PROGRAMS[modname]()
    names = set()
    out = [
        f"# Expected results for {modname.replace('.', '/')}.py, generated by tests/py/oracle.py; do not edit.",
        "# Format: tests/programs/README.md.",
        "",
    ]
    for c in cases:
        if c.name in names:
            raise OracleError(f"{modname}: duplicate case name {c.name}")
        names.add(c.name)
        lines = run_case(c, mod)
        ref = REFERENCES.get((modname, c.name))
        if ref is not None and ref not in lines:
            raise OracleError(f"{c.name}: expected the published {ref!r}")
        if run_case(c, mod, over="ignore" if c.allow_over else "raise") != lines:
            raise OracleError(f"{modname}: {c.name} differs with over='raise'")
        if run_case(c, mod, garbage=True) != lines:
            raise OracleError(f"{modname}: {c.name} reads an element of an empty() array before writing it")
        out.append("\n".join(lines))
        out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Data helpers.

rng = None  # reseeded from the program's name before its cases are made


def f64(*shape, scale=10.0):
    """Float64 values with three decimals (a view-free C array)."""
    return np.round(rng.uniform(-scale, scale, size=shape), 3)


def f32(*shape, scale=10.0):
    return rng.uniform(-scale, scale, size=shape).astype(np.float32)


def ints(dtype, lo, hi, *shape):
    return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)


def arr(values, dtype):
    return np.array(values, dtype=dtype)


def settled(a):
    """`a` rounded to nine decimals: arguments made with NumPy's SIMD
    transcendentals (pow, log, geomspace) differ in the last bit between
    CPUs; rounded, the .expected files are the same everywhere."""
    return np.round(a, 9)


def every_other(a):
    """A view of `a` through a buffer twice as long: stride 2 elements."""
    base = np.zeros((a.shape[0] * 2,) + a.shape[1:], dtype=a.dtype)
    base[::2] = a
    base[1::2] = a[::-1] if a.dtype.kind != "b" else ~a[::-1]
    return base[::2]


def reversed_view(a):
    """a[::-1] of a fresh copy: a negative stride and a non-zero offset."""
    return np.ascontiguousarray(a[::-1])[::-1]


def fortran(a):
    return np.asfortranarray(a)


def transposed(a):
    """A transposed view whose logical value is `a`."""
    return np.ascontiguousarray(a.T).T


def bytes_arr(b):
    return np.frombuffer(b, dtype=np.uint8).copy()


def f32v(x):
    return float(np.float32(x))


def f16v(x):
    return float(np.float16(x))


def zeros(n, dtype):
    return np.zeros(n, dtype=dtype)


# ---------------------------------------------------------------------------
# The programs' cases.

@program("saxpy")
def _saxpy():
    cases = []
    for k, a in enumerate([2.5, -0.1, 0.0]):
        x = every_other(f32(5))
        cases.append(C(f"saxpy_{k}", "saxpy", f32v(a), x, f32(5)))
    cases.append(C("saxpy_empty", "saxpy", f32v(1.5), zeros(0, np.float32), zeros(0, np.float32)))
    cases.append(C("sscal_reversed", "sscal", f32v(-0.5), reversed_view(f32(6))))
    cases.append(C("sscal_strided", "sscal", f32v(3.0), every_other(f32(4))))
    cases.append(C("sasum", "sasum", f32(9)))
    cases.append(C("sasum_signed_zero", "sasum", arr([-0.0, -1.5, 2.25], np.float32)))
    cases.append(C("axpy_broadcast", "axpy", 0.1, f64(2, 3), f64(3)))
    cases.append(C("axpy_column_row", "axpy", f64(3, 1), f64(4), 1.5))
    cases.append(C("axpy_transposed", "axpy", 2.0, transposed(f64(3, 2)), f64(3, 1)))
    cases.append(C("half_step", "half_step", f32(4), f32(2, 4)))
    return cases


@program("dot")
def _dot():
    a = f64(3, 4)
    return [
        C("rowdot_rows", "rowdot", a, f64(4)),
        C("rowdot_stack", "rowdot", f64(2, 1, 3), f64(4, 3)),
        C("rowdot_fortran", "rowdot", fortran(f64(3, 5)), f64(5)),
        C("dot32", "dot32", f32(7), f32(7)),
        C("dot32_views", "dot32", every_other(f32(6)), reversed_view(f32(6))),
        C("dot32_empty", "dot32", zeros(0, np.float32), zeros(0, np.float32)),
        C("dot32_mismatch", "dot32", f32(3), f32(4)),
        C("norm2_345", "norm2", arr([3.0, 4.0], np.float64)),
        C("norm2", "norm2", f64(6)),
        C("norm2_strided", "norm2", every_other(f64(5))),
        C("norm2_32", "norm2_32", f32(5)),
        C("idot", "idot", ints(np.int64, -1000, 1000, 8), ints(np.int64, -1000, 1000, 8)),
        C("idot_reversed", "idot", reversed_view(arr([1, 2, 3, 4], np.int64)), arr([1, 10, 100, 1000], np.int64)),
    ]


@program("matmul")
def _matmul():
    a = f64(4, 3)
    return [
        C("matmul_stack", "matmul", f64(2, 2, 3), f64(3, 2), zeros((2, 2, 2), np.float64)),
        C("matmul_broadcast_b", "matmul", f64(2, 3), f64(3, 3, 2), zeros((3, 2, 2), np.float64)),
        C("matmul_single", "matmul", f64(1, 1), f64(1, 4), zeros((1, 4), np.float64)),
        C("matmul_f", "matmul_f", fortran(f32(3, 4)), fortran(f32(4, 2)), np.zeros((3, 2), np.float32, order="F")),
        C("matmul_f_transposed", "matmul_f", transposed(f32(2, 2)), fortran(f32(2, 3)), np.zeros((2, 3), np.float32, order="F")),
        C("matvec", "matvec", f64(3, 4), f64(4), zeros(3, np.float64)),
        C("matvec_strided_x", "matvec", f64(2, 3), every_other(f64(3)), every_other(zeros(2, np.float64))),
        C("trace", "trace", a),
        C("trace_transposed", "trace", transposed(f64(3, 3))),
        C("trace_fortran", "trace", fortran(f64(2, 5))),
        C("transpose_into", "transpose_into", ints(np.int32, -99, 99, 2, 3), zeros((3, 2), np.int32)),
        C("transpose_into_fortran_out", "transpose_into", ints(np.int32, -9, 9, 3, 2), np.zeros((2, 3), np.int32, order="F")),
        C("weighted_sum", "weighted_sum", arr([[1, 2, 3], [4, 5, 6]], np.int32)),
        C("weighted_sum_transposed", "weighted_sum", transposed(arr([[1, 2, 3], [4, 5, 6]], np.int32))),
        C("weighted_sum_stepped", "weighted_sum", ints(np.int32, -50, 50, 4, 6)[::-1, ::2]),
    ]


@program("global_arrays")
def _global_arrays():
    f32 = np.float32
    return [
        C("periodic_0", "periodic", 0.0, tol="ulps=16"),
        C("periodic_025", "periodic", 0.25, tol="ulps=16"),
        C("periodic_loop_0", "periodic_loop", 0.0, tol="ulps=16"),
        C("periodic_loop_m1", "periodic_loop", -1.0, tol="ulps=16"),
        C("amplitude_total", "amplitude_total"),
        C("row_of_1", "row_of", 1, zeros(3, np.float64)),
        C("row_of_last", "row_of", -1, zeros(3, np.float64)),
        C("scaled_phases", "scaled_phases", zeros(5, np.float64)),
        C("prime_sum", "prime_sum"),
        C("nth_prime_3", "nth_prime", 3),
        C("nth_prime_m2", "nth_prime", -2),
        C("nth_prime_out", "nth_prime", 7),
        C("cube_total", "cube_total"),
        C("cube_plane_2", "cube_plane", 2),
        C("weighted", "weighted", arr([1.0, 2.0, 4.0, 8.0], f32)),
        C("weighted_strided", "weighted", every_other(arr([1.0, 0.0, -2.0, 0.0, 0.5, 0.0, 3.0, 0.0], f32))),
        C("mask_count", "mask_count"),
        C("byte_total", "byte_total"),
        C("truncated_0", "truncated", 0),
        C("truncated_1", "truncated", 1),
        C("edge_0", "edge", 0),
        C("edge_2", "edge", 2),
        C("edge_3", "edge", 3),
        C("twice_first", "twice_first", 0.5),
    ]


@program("collatz")
def _collatz():
    cases = [C(f"steps_{n}", "steps", n) for n in (1, 2, 27, 97, 837799)]
    cases.append(C("longest_1000", "longest", 1000, zeros(2, np.int64)))
    cases.append(C("longest_10", "longest", 10, zeros(2, np.int64)))
    cases.append(C("longest_1", "longest", 1, zeros(2, np.int64)))
    cases += [C(f"peak_u32_{n}", "peak_u32", n) for n in (1, 7, 27, 703)]
    cases += [C(f"countdown_sum_{n}", "countdown_sum", n) for n in (0, 1, 100)]
    return cases


@program("dtype_params")
def _dtype_params():
    f64 = np.float64
    return [
        C("filled", "filled", 5, np.float32, 0.5),
        C("filled_dtype_object", "filled", 3, np.dtype("float32"), -1.25),
        C("filled_empty", "filled", 0, np.float32, 2.0),
        C("total_as", "total_as", arr([1.0, 2.0, -4.0, 7.0], f64), np.int32),
        C("total_as_strided", "total_as", every_other(arr([1.0, 9.0, 2.0, 9.0, 3.0], f64)), np.int32),
        C("mask_of", "mask_of", arr([[0.5, 2.0, -1.0], [3.0, 0.0, 1.0]], f64), np.uint8, 1.0),
        C("mask_of_transposed", "mask_of", transposed(arr([[0.5, 2.0, -1.0], [3.0, 0.0, 1.0]], f64)), np.uint8, 0.5),
    ]


@program("optional_arrays")
def _optional_arrays():
    f64, f32, i64 = np.float64, np.float32, np.int64
    x = arr([2.0, -1.5, 4.25, 0.5, 3.0], f64)
    w = arr([1.0, 2.0, 0.5, 0.25, 4.0], f64)
    pts = arr([[0.5, 1.0, -2.0], [3.0, -1.0, 0.25], [1.5, 2.0, 2.0], [-0.5, 0.0, 1.0]], f64)
    a = arr([[1.5, -2.0, 0.25], [4.0, 0.5, -1.0]], f32)
    ints = arr([0, 3, 5, 2, 7, 4, 4, -1, 2], i64)
    return [
        C("weighted_mean_none", "weighted_mean", x, None),
        C("weighted_mean_given", "weighted_mean", x, w),
        C("weighted_mean_reversed", "weighted_mean", x, reversed_view(w)),
        # `np.dot` is BLAS's under CPython, whose kernels order a sum by CPU.
        C("centroid_none", "centroid", pts, None, tol="ulps=4"),
        C("centroid_weighted", "centroid", pts, arr([1.0, 3.0, 0.5, 2.0], f64), tol="ulps=4"),
        C("centroid_transposed", "centroid", transposed(arr([[0.5, 3.0, 1.5, -0.5], [1.0, -1.0, 2.0, 0.0], [-2.0, 0.25, 2.0, 1.0]], f64)), every_other(arr([1.0, 9.0, 3.0, 9.0, 0.5, 9.0, 2.0], f64)), tol="ulps=4"),
        C("masked_total_none", "masked_total", a, None),
        C("masked_total_mask", "masked_total", a, arr([[1.0, 0.0, 2.0], [0.5, 1.0, 0.0]], f32)),
        C("masked_total_empty_mask", "masked_total", a, np.zeros((0, 3), f32)),
        C("masked_total_fortran", "masked_total", fortran(a), fortran(arr([[1.0, 0.0, 2.0], [0.5, 1.0, 0.0]], f32))),
        C("count_in_none", "count_in", ints, None),
        C("count_in_bounds", "count_in", ints, (2, 5)),
        C("count_in_empty_range", "count_in", ints, (5, 2)),
        C("span_none", "span", None),
        C("span_given", "span", (-1.5, 2.25)),
        C("passed_on_none", "passed_on", x, None),
        C("passed_on_given", "passed_on", x, w),
        C("both_ways", "both_ways", x),
        C("in_range", "in_range", ints),
    ]


@program("optional_values")
def _optional_values():
    f64, i32 = np.float64, np.int32
    cases = [
        C("scaled_default", "scaled", 3.0, None),
        C("scaled_given", "scaled", 3.0, 4.0),
        C("clipped_no_bounds", "clipped", 7, None, None),
        C("clipped_below", "clipped", -3, 0, None),
        C("clipped_above", "clipped", 9, 0, 5),
        C("clipped_only_hi", "clipped", 9, None, 5),
        C("clipped_inside", "clipped", 4, 0, 5),
        C("describe_none", "describe", None),
        C("describe_false", "describe", False),
        C("describe_true", "describe", True),
        C("nearest_mixed", "nearest", arr([2.5, -1.0, 7.25, 0.0, -3.5], f64), 1.0),
        C("nearest_stepped", "nearest", arr([9.0, 1.0, -2.0, 5.0, 3.0, 8.0], f64)[::2], 4.0),
        C("nearest_empty", "nearest", zeros(0, f64), 1.0),
        C("first_negative_found", "first_negative", arr([3, 0, -7, -2], i32)),
        C("first_negative_none", "first_negative", arr([3, 0, 7], i32)),
        C("first_negative_empty", "first_negative", zeros(0, i32)),
        C("halved_even", "halved", -8),
        C("halved_odd", "halved", 7),
        C("or_default_given", "or_default", 2.5, 1.0),
        C("or_default_none", "or_default", None, 1.0),
        C("checked_given", "checked", 2.0),
        C("checked_none", "checked", None),
        C("never_none", "never_none", 1.5, 3),
        C("array_never_none", "array_never_none", arr([1.5, 2.0], f64), np.ones((2, 2)), None),
        C("array_never_none_t", "array_never_none", transposed(arr([1.5, 2.0], f64)), fortran(np.ones((2, 2))), 0.25),
        C("is_missing_none", "is_missing", None),
        C("is_missing_given", "is_missing", 0),
        C("chain_none", "chain", None),
        C("chain_even", "chain", 10),
        C("chain_odd", "chain", 11),
        C("counted_0", "counted", 0),
        C("counted_6", "counted", 6),
        C("nearest_of_three_mid", "nearest_of_three", 1.2),
        C("nearest_of_three_nan", "nearest_of_three", float("nan")),
        C("nearest_list_last", "nearest_list", 5.0, 1.0, 2.5, 2.0),
        C("last_index_found", "last_index", arr([4, -1, 4, 2], i32), i32(4)),
        C("last_index_missing", "last_index", arr([4, -1, 4, 2], i32), i32(3)),
        C("positive_or_none_given", "positive_or_none", 2.0),
        C("positive_or_none_negative", "positive_or_none", -1.0),
        C("positive_or_none_zero", "positive_or_none", 0.0),
        C("half_if_even_even", "half_if_even", 8),
        C("half_if_even_odd", "half_if_even", 7),
        C("tripled_above_both", "tripled_above", 5, 2),
        C("tripled_above_below", "tripled_above", 1, 2),
        C("tripled_above_negative", "tripled_above", -4, -9),
        C("tripled_above_one", "tripled_above", 1, 0),
        C("first_below_found", "first_below", arr([4, -1, 4], np.int64), 0),
        C("first_below_else", "first_below", arr([4, 1, 4], np.int64), 0),
        C("stopped_at_break", "stopped_at", 5, 3),
        C("stopped_at_else", "stopped_at", 5, 9),
        C("equals_none_none", "equals_none", None),
        C("equals_none_zero", "equals_none", 0.0),
        C("doubled_unless_none_none", "doubled_unless_none", None),
        C("doubled_unless_none_given", "doubled_unless_none", i32(-4)),
        C("truth_of_none", "truth_of", None),
        C("truth_of_zero", "truth_of", 0.0),
        C("truth_of_half", "truth_of", 0.5),
        C("truth_of_nan", "truth_of", float("nan")),
        C("not_of_none", "not_of", None),
        C("not_of_zero", "not_of", 0),
        C("not_of_two", "not_of", 2),
        C("plus_ten_if_truthy_none", "plus_ten_if_truthy", None),
        C("plus_ten_if_truthy_zero", "plus_ten_if_truthy", 0),
        C("plus_ten_if_truthy_given", "plus_ten_if_truthy", -3),
        C("both_none", "both", None, True),
        C("both_false", "both", False, True),
        C("both_true", "both", True, True),
        C("both_true_false", "both", True, False),
        C("either_none_false", "either", None, False),
        C("either_none_true", "either", None, True),
        C("either_true", "either", True, False),
        C("either_false", "either", False, False),
        C("passed_on_none", "passed_on", None),
        C("passed_on_positive", "passed_on", np.float32(2.5)),
        C("passed_on_negative", "passed_on", np.float32(-1.5)),
        C("countdown_4", "countdown", 4),
        C("countdown_0", "countdown", 0),
        C("countdown_negative", "countdown", -3),
        C("doubled_nonzero_kept", "doubled_nonzero", 5, True),
        C("doubled_nonzero_zero", "doubled_nonzero", 0, True),
        C("doubled_nonzero_dropped", "doubled_nonzero", 5, False),
        C("capped_negative", "capped", -3),
        C("capped_small", "capped", 4),
        C("capped_large", "capped", 40),
        C("required_nonzero_given", "required_nonzero", 3),
        C("required_nonzero_zero", "required_nonzero", 0),
        C("required_nonzero_none", "required_nonzero", None),
        C("first_truthy_second", "first_truthy", None, 2),
        C("first_truthy_first", "first_truthy", 3, 2),
        C("first_truthy_neither", "first_truthy", 0, None),
        C("same_or_both_none_none", "same_or_both_none", None, None),
        C("same_or_both_none_left", "same_or_both_none", None, 0),
        C("same_or_both_none_right", "same_or_both_none", 0.0, None),
        C("same_or_both_none_equal", "same_or_both_none", 2.0, 2),
        C("same_or_both_none_unequal", "same_or_both_none", 2.5, 2),
        C("halves_differ_odd_odd", "halves_differ", 3, 5),
        C("halves_differ_even_odd", "halves_differ", 4, 3),
        C("halves_differ_equal", "halves_differ", -4, -4),
        C("halves_differ_unequal", "halves_differ", 4, 6),
    ]
    return cases


@program("tuple_returns")
def _tuple_returns():
    mixed = arr([2.5, -1.0, 7.25, 0.0, -3.5], np.float64)
    cases = [
        C("min_max_mixed", "min_max", mixed),
        C("min_max_one", "min_max", arr([4.0], np.float64)),
        C("min_max_stepped", "min_max", arr([9.0, 1.0, -2.0, 5.0, 3.0, 8.0], np.float64)[::2]),
        C("min_max_empty", "min_max", zeros(0, np.float64)),
    ]
    cases += [C(f"floor_divmod_{i}", "floor_divmod", a, b)
              for i, (a, b) in enumerate(((17, 5), (-17, 5), (17, -5), (-17, -5), (0, 3)))]
    cases.append(C("floor_divmod_by_zero", "floor_divmod", 7, 0))
    cases += [
        C("split_signs_mixed", "split_signs", mixed),
        C("split_signs_reversed", "split_signs", mixed[::-1]),
        C("split_signs_empty", "split_signs", zeros(0, np.float64)),
        C("scaled_grows", "scaled", mixed, 2.0),
        C("scaled_shrinks", "scaled", mixed[1:4], 0.5),
        C("square_twice", "square_twice", 1.5 - 2j, np.int32(21)),
        C("square_twice_real", "square_twice", 3.0 + 0j, np.int32(-4)),
        C("range_width_mixed", "range_width", mixed),
        C("range_width_empty", "range_width", zeros(0, np.float64)),
        C("count_and_total_mixed", "count_and_total", mixed),
        C("count_and_total_stepped", "count_and_total", mixed[::2]),
        C("digits_checksum", "digits_checksum", arr([17, -17, 40, 3], np.int64), 5),
        C("digits_checksum_by_zero", "digits_checksum", arr([17, 4], np.int64), 0),
        C("spread_mixed", "spread", mixed),
        C("spread_one", "spread", arr([4.0], np.float64)),
        C("spread_empty", "spread", zeros(0, np.float64)),
        C("normalized_peak", "normalized_peak", arr([2.0, 6.0, 4.0, 3.0], np.float64)),
        C("corrected_summary", "corrected_summary", arr([2.0, 6.0, 4.0, 3.0], np.float64), 0.01),
        C("corrected_summary_unconverged", "corrected_summary", arr([1e9, -3.0], np.float64)[::-1], 1e-9),
        C("normalized_peak_reversed", "normalized_peak", arr([1.0, 9.0, 5.0, 3.0, 0.5], np.float64)[::-1]),
    ]
    return cases


@program("recursion")
def _recursion():
    cases = [C(f"fib_{n}", "fib", n) for n in (0, 1, 2, 10, 20)]
    cases += [C(f"gcd_{a}_{b}", "gcd", a, b) for a, b in ((12, 18), (-12, 18), (17, 5), (0, 9), (0, 0), (1071, 462), (-48, -18))]
    cases += [C(f"ugcd_{a}_{b}", "ugcd", a, b) for a, b in ((2**64 - 1, 2**32 - 1), (2**63, 2**40), (48, 18), (0, 5))]
    cases += [C(f"ackermann_{m}_{n}", "ackermann", m, n) for m, n in ((0, 0), (1, 2), (2, 3), (3, 3))]
    cases += [C(f"binom_{n}_{k}", "binom", n, k) for n, k in ((5, 2), (10, 5), (12, 0), (16, 8))]
    cases += [C(f"hanoi_moves_{n}", "hanoi_moves", n) for n in (0, 1, 10, 40)]
    cases += [C(f"digit_sum_{n}", "digit_sum", n) for n in (0, 9, 12345, -987, 9223372036854775807)]
    cases += [C(f"is_even_{n}", "is_even", n) for n in (0, 7, 10)]
    return cases


@program("intdiv")
def _intdiv():
    cases = []
    pairs = [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 5), (6, 3), (-6, 3), (2**63 - 1, -1), (-(2**63), 1), (-(2**63), 2**63 - 1), (5, 9)]
    for a, b in pairs:
        cases.append(C(f"floordiv_{a}_{b}", "floordiv", a, b))
        cases.append(C(f"modulo_{a}_{b}", "modulo", a, b))
    cases.append(C("floordiv_by_zero", "floordiv", 7, 0))
    cases.append(C("modulo_by_zero", "modulo", 7, 0))
    cases.append(C("floordiv_zero_by_zero", "floordiv", 0, 0))
    cases += [C(f"divmod_check_{a}_{b}", "divmod_check", a, b) for a, b in ((17, 5), (-17, 5), (17, -5), (-17, -5))]
    cases += [C(f"floordiv8_{a}_{b}", "floordiv8", a, b) for a, b in ((-128, 2), (127, -1), (-7, 3), (100, 7))]
    cases += [C(f"mod8_{a}_{b}", "mod8", a, b) for a, b in ((-128, 3), (127, -5), (-7, 3), (5, 0))]
    cases += [C(f"umod_{a}_{b}", "umod", a, b) for a, b in ((4294967295, 10), (7, 9), (7, 0))]
    cases += [C(f"halve_inplace_{a}_{b}", "halve_inplace", a, b) for a, b in ((9, 2), (-9, 2), (9, 0))]
    cases += [C(f"mod_inplace_{a}_{b}", "mod_inplace", a, b) for a, b in ((9, 4), (-9, 4), (9, 0))]
    cases += [C(f"shifted_div_{a}_{b}_{c}", "shifted_div", a, b, c) for a, b, c in ((5, 6, 4), (5, -6, 4), (1, 2, 0))]
    cases += [C(f"ratio_{a}_{b}", "ratio", a, b) for a, b in ((1, 3), (-7, 2), (2147483647, 2), (0, -5))]
    cases += [C(f"mean_int_{a}_{b}", "mean_int", a, b) for a, b in ((1, 2), (-3, 0), (2**52, 1))]
    for x, y in ((7.5, 2.0), (-7.5, 2.0), (7.5, -2.0), (-0.0, 3.0), (0.1, 0.01), (math.inf, 2.0), (5.0, math.inf), (-5.0, math.inf)):
        cases.append(C(f"fdiv_float_{x}_{y}", "fdiv_float", x, y))
        cases.append(C(f"fmod_float_{x}_{y}", "fmod_float", x, y))
    return cases


@program("operand_kinds")
def _operand_kinds():
    cases = []
    for a, b in ((7, 2), (-7, 2), (7, 0), (0, 0), (-3, 0)):
        for f in ("py_div", "py_floordiv", "py_mod", "py_int_truediv", "py_complex_div"):
            cases.append(C(f"{f}_{a}_{b}", f, a, b))
    cases += [C(f"py_reciprocal_{a}", "py_reciprocal", a) for a in (4, -8, 0)]
    cases += [C(f"py_pow_{a}_{b}", "py_pow", a, b) for a, b in ((2, -1), (0, 0), (0, 3), (0, -1), (-2, 3))]
    cases += [C(f"py_halving_{a}", "py_halving", a) for a in (0, 5, -9)]
    cases += [C(f"py_shl_{a}_{k}", "py_shl", a, k) for a, k in ((1, 3), (-5, 2), (7, 0), (7, -1))]
    cases += [C(f"np_shl32_{a}_{k}", "np_shl32", a, k) for a, k in ((7, -1), (7, 3), (-7, -30), (1, 31), (1, 32), (3, -2147483648))]
    cases += [C(f"np_shr64_{a}_{k}", "np_shr64", a, k) for a, k in ((-8, -1), (8, -1), (-8, 2), (-8, 64), (8, 100), (-(2**63), -(2**63)))]
    cases += [C(f"np_shl8_{a}_{k}", "np_shl8", a, k) for a, k in ((1, 7), (1, 8), (3, -1), (-1, 127), (-1, -128))]
    cases += [C(f"np_shl_literal_{a}", "np_shl_literal", a) for a in (7, -7, 0)]
    # By zero it is inf or nan, which the oracle's errstate turns into an
    # error: python/tests/test_panics.py checks those against NumPy.
    cases += [C(f"np_div_{x}_{y}", "np_div", x, y) for x, y in ((1.0, 4.0), (-3.0, 0.5))]
    cases += [C(f"big_local_compare_{v}", "big_local_compare", v) for v in (5, -(2**31), 2**31 - 1)]
    cases += [C(f"big_local_floordiv_{v}", "big_local_floordiv", v) for v in (5, -1)]
    pairs = ((2, 7), (3, -(2**31)), (3, 2**31 - 1), (2, 2**40), (3, -(2**31) - 1), (-4, 2**31))
    cases += [C(f"py_int_floordiv32_{v}_{k}", "py_int_floordiv32", v, k) for v, k in pairs]
    pairs = ((5, 2**40), (5, -(2**40)), (5, 3), (5, 9), (-(2**31), -(2**31) - 1), (2**31 - 1, 2**31))
    cases += [C(f"py_int_above32_{v}_{k}", "py_int_above32", v, k) for v, k in pairs]
    pairs = ((0, -1), (5, -(2**63)), (2**64 - 1, 2**63 - 1), (7, 7), (7, 6), (2**63, 5))
    cases += [C(f"py_int_below_u64_{v}_{k}", "py_int_below_u64", v, k) for v, k in pairs]
    pairs = ((5, 3), (2**64 - 10, 9), (5, -1), (0, -(2**63)))
    cases += [C(f"u64_plus_py_int_{v}_{k}", "u64_plus_py_int", v, k) for v, k in pairs]
    cases += [C(f"counter_plus_i8_{x}_{n}", "counter_plus_i8", x, n) for x, n in ((3, 100), (-128, 256), (0, 129), (0, 0))]
    return cases


@program("private_names")
def _private_names():
    cases = [C(f"_repeat_{n}", "_repeat", n) for n in (0, 21, -4)]
    cases += [C(f"__two_factors_{n}", "__two_factors", n) for n in (1, 12, 1024, 0)]
    cases += [C(f"public_{n}", "public", n) for n in (1, 12, 96)]
    cases += [C(f"_twice_{n}", "_twice", n) for n in (3, -5)]
    cases.append(C("_half", "_half", arr([1.0, -3.0, 0.5], np.float64)))
    return cases


@program("loops_over")
def _loops_over():
    cases = [
        C("walk_forward", "walk", arr([1.5, -2.25, 4.0, 8.0], np.float64), 1),
        C("walk_backward", "walk", arr([1.5, -2.25, 4.0, 8.0], np.float64), -1),
        C("walk_empty", "walk", zeros(0, np.float64), 0),
        C("walk_strided", "walk", every_other(arr([1.0, 2.0, 4.0, 8.0, 16.0], np.float64)), 0),
        C("held_steps_up", "held_steps", 10, 3),
        C("held_steps_down", "held_steps", -10, -3),
        C("held_steps_zero", "held_steps", 5, 0),
        C("total", "total", arr([1.5, -2.25, 4.0], np.float64)),
        C("total_empty", "total", zeros(0, np.float64)),
        C("total_strided", "total", every_other(arr([1.0, 2.0, 4.0, 8.0, 16.0], np.float64))),
        C("weighted", "weighted", arr([3, -1, 4, 1, -5], np.int32)),
        C("weighted_reversed", "weighted", arr([3, -1, 4, 1, -5], np.int32)[::-1]),
        C("dot", "dot", arr([1.0, 2.0, 3.0], np.float64), arr([4.0, 5.0], np.float64)),
        C("dot_empty", "dot", zeros(0, np.float64), arr([4.0, 5.0], np.float64)),
        C("first_negative_found", "first_negative", arr([4, 2, -7, -1], np.int64)),
        C("first_negative_none", "first_negative", arr([4, 2, 7], np.int64)),
        C("running_max", "running_max", arr([1.0, 3.0, 2.0, 5.0, 4.0], np.float64), zeros(5, np.float64)),
        C("triples", "triples", arr([1, 2, 3, 4], np.int32), arr([5, 6, 7], np.int32), arr([1, 1, 1, 1, 1], np.int32)),
    ]
    cases += [C(f"is_prime_{n}", "is_prime", n) for n in (0, 1, 2, 3, 4, 17, 25, 97, 7919)]
    cases += [C(f"count_down_{n}", "count_down", n) for n in (0, 1, 9, 10, 1000)]
    w = arr([1.5, -2.0, 4.25, 0.5], np.float64)
    cases += [C(f"steps_{n}", "steps", w, n) for n in (0, 2, 4, 9)]
    cases += [C("steps_strided", "steps", every_other(arr([1.0, 2.0, 4.0, 8.0, 16.0], np.float64)), 5)]
    v = arr([3, -1, 4, 1], np.int32)
    cases += [C(f"stepped_{a}_{k}", "stepped", w, v, a, k) for a, k in ((0, 1), (2, 3), (5, -1), (-4, -2), (0, 0))]
    cases += [C(f"signs_{i}", "signs", x, n) for i, (x, n) in enumerate(((3.5, 5), (-4.5, 6), (0.0, 3), (2.5, 0), (-1.5, 8)))]
    cases += [
        C("group_sum", "group_sum", arr([1.5, 2.0, -1.0, 4.0, 0.5], np.float64), arr([0, 2, -1, 2, 1], np.int64),
          zeros(3, np.float64)),
        C("group_sum_strided", "group_sum", every_other(f64(6)), arr([1, 1, 0], np.int64), zeros(2, np.float64)),
        C("group_sum_beyond", "group_sum", arr([1.0, 2.0], np.float64), arr([0, 3], np.int64), zeros(2, np.float64)),
        C("group_sum_empty", "group_sum", zeros(0, np.float64), zeros(0, np.int64), zeros(2, np.float64)),
        C("grid_walk", "grid_walk", f64(3, 4), 2),
        C("grid_walk_all", "grid_walk", transposed(f64(2, 3)), 9),
        C("grid_walk_empty", "grid_walk", np.zeros((0, 3)), 1),
        C("count_cells", "count_cells", 3, 4),
        C("count_cells_empty", "count_cells", 3, 0),
        C("count_cells_negative", "count_cells", -1, 4),
    ]
    cases += [C("over_made_arrays", "over_made_arrays", f64(3, 4)),
              C("over_made_arrays_transposed", "over_made_arrays", f64(4, 3).T)]
    return cases


@program("bits")
def _bits():
    cases = [C(f"popcount32_{x}", "popcount32", x) for x in (0, 1, 255, 0x80000000, 0xFFFFFFFF, 0x12345678)]
    cases += [C(f"popcount64_{x}", "popcount64", x) for x in (0, 2**64 - 1, 0x8000000000000001, 0x0123456789ABCDEF)]
    cases += [C(f"rev8_{x}", "rev8", x) for x in (0, 1, 0x80, 0xF0, 0b10110010, 255)]
    cases += [C(f"clz32_{x}", "clz32", x) for x in (0, 1, 0x8000, 0x7FFFFFFF, 0xFFFFFFFF)]
    cases += [C(f"sar16_{x}_{k}", "sar16", x, k) for x, k in ((-7, 1), (-32768, 15), (32767, 3), (-1, 10), (100, 0))]
    cases += [C(f"shl32_{x}_{k}", "shl32", x, k) for x, k in ((1, 30), (-1, 31), (3, 4), (-5, 2))]
    cases += [C(f"inv32_{x}", "inv32", x) for x in (0, -1, 2147483647, -2147483648, 12345)]
    cases += [C(f"inv8_{x}", "inv8", x) for x in (0, 255, 0x5A)]
    cases += [C(f"inv16_{x}", "inv16", x) for x in (0, -32768, 77)]
    cases += [C(f"is_pow2_{x}", "is_pow2", x) for x in (0, 1, 2, 3, 64, 96, 0x80000000)]
    cases += [C(f"bit_field_{x}_{lo}_{w}", "bit_field", x, lo, w) for x, lo, w in ((0xDEADBEEF, 8, 8), (0xDEADBEEF, 0, 31), (0xFFFFFFFF, 28, 4), (5, 0, 0))]
    cases += [C(f"swap_nibbles_{x}", "swap_nibbles", x) for x in (0x12, 0xF0, 0)]
    cases += [C(f"gray_{x}", "gray", x) for x in (0, 1, 2, 3, 255, 2**64 - 1)]
    cases += [C(f"gray_inverse_{x}", "gray_inverse", x) for x in (0, 1, 3, 2, 128, 2**63)]
    cases.append(C("xor_fold16", "xor_fold16", arr([0x1234, 0xFFFF, 0x0F0F, 0x8000], np.uint16)))
    cases.append(C("xor_fold16_strided", "xor_fold16", every_other(arr([1, 2, 4, 8, 16], np.uint16))))
    cases.append(C("or_all8", "or_all8", arr([1, 2, -128, 16], np.int8)))
    cases.append(C("or_all8_positive", "or_all8", arr([1, 2, 4], np.int8)))
    cases += [C(f"mask_low_{x}_{k}", "mask_low", x, k) for x, k in ((-1, 8), (123456789, 12), (-(2**63), 62), (2**63 - 1, 0))]
    return cases


@program("hashing")
def _hashing():
    hw = bytes_arr(b"hello world")
    wiki = bytes_arr(b"Wikipedia")
    cases = [
        C("fnv1a32_hello_world", "fnv1a32", hw),
        C("fnv1a32_empty", "fnv1a32", zeros(0, np.uint8)),
        C("fnv1a32_a", "fnv1a32", bytes_arr(b"a")),
        C("fnv1a32_strided", "fnv1a32", every_other(bytes_arr(b"post"))),
        C("adler32_wikipedia", "adler32", wiki),
        C("adler32_empty", "adler32", zeros(0, np.uint8)),
        C("adler32_ff", "adler32", np.full(300, 255, np.uint8)),
        C("xorshift32_marsaglia", "xorshift32", 2463534242),
        C("xorshift32_1", "xorshift32", 1),
        C("xorshift_stream", "xorshift_stream", 2463534242, zeros(5, np.uint64)),
        C("djb2_hello", "djb2", bytes_arr(b"hello")),
        C("djb2_long", "djb2", bytes_arr(b"the quick brown fox jumps over the lazy dog")),
        C("bucket_hello_world_97", "bucket", hw, 97),
        C("bucket_a_16", "bucket", bytes_arr(b"a"), 16),
        C("bucket_zero", "bucket", hw, 0),
    ]
    # Published reference values.
    def fnv(b):
        h = 2166136261
        for c in b:
            h = ((h ^ c) * 16777619) % 2**32
        return h

    assert fnv(b"hello world") == 0xD58B3FA7
    assert fnv(b"a") == 0xE40C292C
    return cases


@program("strings")
def _strings():
    return [
        C("greet_world", "greet", "World"),
        C("greet_empty", "greet", ""),
        C("greet_unicode", "greet", "caf\u00e9 \U0001d11e"),
        C("join_path", "join_path", "usr", "lib"),
        C("join_path_empty", "join_path", "", "lib"),
        C("str_len", "str_len", "numpy"),
        C("str_len_empty", "str_len", ""),
        C("str_len_unicode", "str_len", "na\u00efve \u20ac \U0001d11e \u07ff\U0010ffff"),
        C("same_yes", "same", "abc", "abc"),
        C("same_no", "same", "abc", "abd"),
        C("same_prefix", "same", "ab", "abc"),
        C("differ_yes", "differ", "x", "y"),
        C("differ_no", "differ", "", ""),
        C("before_yes", "before", "apple", "banana"),
        C("before_prefix", "before", "app", "apple"),
        C("before_equal", "before", "kiwi", "kiwi"),
        C("before_case", "before", "Zebra", "apple"),
        C("before_unicode", "before", "z", "\u00e9"),
        C("before_empty", "before", "", "a"),
        C("before_empty_both", "before", "", ""),
        C("same_empty", "same", "", "a"),
        C("str_order_empty", "str_order", "a", ""),
        C("str_order_empty_both", "str_order", "", ""),
        C("str_order_prefix", "str_order", "abc", "ab"),
        C("str_order_equal", "str_order", "caf\u00e9", "caf\u00e9"),
        C("str_order_unicode", "str_order", "ab\u00e9", "abz"),
        C("str_order_unicode_prefix", "str_order", "\u00e9", "\u00e9t\u00e9"),
        C("str_order_euro", "str_order", "\u20ac", "\u00ff"),
        C("str_order_astral", "str_order", "\uffff", "\U0001f600"),
        C("smaller", "smaller", "pear", "peach"),
        C("smaller_equal", "smaller", "fig", "fig"),
        C("repeat_3", "repeat", "ab", 3),
        C("repeat_0", "repeat", "ab", 0),
        C("total_len", "total_len", "post", "-", "python"),
        C("tag_bytes", "tag_bytes", b"\r\n\x1a\n"),
        C("tag_bytes_empty", "tag_bytes", b""),
        C("frame", "frame", b"abc"),
        C("frame_empty", "frame", b""),
        C("bytes_len", "bytes_len", b"\x00\xff\x00"),
        C("bytes_order_lt", "bytes_order", b"abc", b"abd"),
        C("bytes_order_eq", "bytes_order", b"\x00", b"\x00"),
        C("bytes_order_gt", "bytes_order", b"\xff", b"\x00\xff"),
        C("bytes_order_prefix", "bytes_order", b"ab", b"a"),
        C("bytes_order_empty", "bytes_order", b"", b"\x00"),
        C("bytes_order_empty_both", "bytes_order", b"", b""),
        C("bytes_order_high", "bytes_order", b"ab\x80", b"ab\x7f"),
        C("bytes_order_high_first", "bytes_order", b"\x7f\xff", b"\x80"),
        C("bytes_order_high_prefix", "bytes_order", b"\xff\xfe", b"\xff\xfe\x00"),
        C("has_magic_yes", "has_magic", b"\x89PNG"),
        C("has_magic_no", "has_magic", b"GIF8"),
        C("has_magic_short", "has_magic", b"\x89P"),
    ]


@program("complexmath")
def _complexmath():
    c64 = lambda re, im: complex(f32v(re), f32v(im))  # noqa: E731
    return [
        C("cmul", "cmul", 1.5 + 2j, 0.25 - 4j),
        C("conj_product", "conj_product", 1.5 + 2j, c64(0.25, -4.0)),
        C("cmul_i_i", "cmul", 1j, 1j),
        C("cmul_inf", "cmul", complex(math.inf, 0.0), 1 + 1j),
        C("cmul64", "cmul64", c64(1.5, 2.0), c64(0.25, -4.0)),
        # NumPy rounds each Complex64 product term to Float32; postc forms
        # each part of the product in Float64 and rounds it once, which can
        # differ in the last place.
        C("cmul64_rounding", "cmul64", c64(0.1, 0.2), c64(0.3, -0.7), tol="ulps=1"),
        C("make", "make", 1.25, -3.5),
        C("make_neg_zero", "make", -0.0, 0.0),
        C("conj_prod", "conj_prod", 3 + 4j),
        C("conj_prod_small", "conj_prod", 0.1 + 0.2j),
        C("parts_swap", "parts_swap", 1.5 - 2.5j),
        C("mag_345", "mag", 3 + 4j, tol="ulps=4"),
        C("mag", "mag", -1.1 + 7.3j, tol="ulps=4"),
        C("mag64", "mag64", c64(0.6, -0.8), tol="ulps=4"),
        C("poly_eval", "poly_eval", arr([1 + 0j, -2 + 1j, 0.5j], np.complex128), 0.5 - 1j),
        C("poly_eval_reversed", "poly_eval", reversed_view(arr([1, 2, 3, 4], np.complex128)), 1j),
        C("sum64", "sum64", (f32(6) + 1j * f32(6)).astype(np.complex64)),
        C("sum64_strided", "sum64", every_other(arr([1 + 1j, 2 - 2j, 0.5j], np.complex64))),
        C("mandel_origin", "mandel", 0j, 50),
        C("mandel_escape", "mandel", 1 + 1j, 50),
        C("mandel_edge", "mandel", -0.75 + 0.1j, 100),
        C("mandel_limit0", "mandel", 2 + 2j, 0),
        C("is_real_yes", "is_real", 2.5 + 0j),
        C("is_real_no", "is_real", 2.5 + 1e-300j),
        C("is_real_nan", "is_real", complex(math.nan, 0.0)),
        C("rotate_0", "rotate", c64(1.5, -2.0), 0),
        C("rotate_1", "rotate", c64(1.5, -2.0), 1),
        C("rotate_3", "rotate", c64(1.5, -2.0), 3),
        C("rotate_minus_1", "rotate", c64(1.0, 0.0), -1),
        C("widen", "widen", c64(0.1, -0.3)),
    ]


@program("float_edges")
def _float_edges():
    nan, inf = math.nan, math.inf
    c64 = lambda re, im: complex(f32v(re), f32v(im))  # noqa: E731
    cases = []
    pairs = [
        (7.5, 2.0), (-7.5, 2.0), (7.5, -2.0), (-7.5, -2.0), (0.0, 5.0), (-0.0, 5.0), (0.0, -5.0),
        (-0.0, -5.0), (1.0, inf), (-1.0, inf), (1.0, -inf), (-1.0, -inf), (inf, 2.0), (-inf, 2.0),
        (nan, 1.0), (1.0, nan), (1e308, 1e-308), (-1e308, 3e-308), (5e-324, 1.0), (-5e-324, 1.0),
        (5e-324, -1.0), (0.3, 0.1), (1e16, 3.0), (-1e-300, 1e300), (6.0, 3.0), (-6.0, 3.0),
    ]
    for i, (x, y) in enumerate(pairs):
        cases.append(C(f"floordiv_{i}", "floordiv", x, y))
        cases.append(C(f"mod_{i}", "mod", x, y))
    cases.append(C("floordiv_by_zero", "floordiv", 1.0, 0.0))
    cases.append(C("mod_by_zero", "mod", -1.0, -0.0))
    for i, (x, y) in enumerate([(-7.5, 2.0), (1e300, -1e-300), (-0.0, inf), (5.0, -3.0)]):
        cases.append(C(f"divmod_{i}", "divmod_into", x, y, np.zeros(3)))
    for i, (x, y) in enumerate([(-7.5, 2.0), (-0.0, 3.0), (0.0, -3.0), (1.0, -inf), (-1.0, inf),
                                (inf, 3.0), (nan, 2.0), (f32v(0.1), f32v(0.03))]):
        cases.append(C(f"floordiv32_{i}", "floordiv32", f32v(x), f32v(y)))
        cases.append(C(f"mod32_{i}", "mod32", f32v(x), f32v(y)))
    for i, (x, y) in enumerate([(-7.5, 2.0), (-0.0, 3.0), (5.0, -inf), (65504.0, 3.0), (f16v(0.1), 2.0)]):
        cases.append(C(f"mod16_{i}", "mod16", f16v(x), f16v(y)))
    quotients = [
        (1 + 2j, 3 - 4j), (1e300 + 1e300j, 1e-300 + 1e-300j), (complex(inf, 0.0), 1 + 1j),
        (1 + 1j, complex(inf, inf)), (complex(nan, 0.0), 1j), (1 + 1j, complex(1e-310, 0.0)),
        (complex(-0.0, -0.0), 1 + 0j), (complex(0.0, 0.0), complex(-1.0, 0.0)), (1 + 1j, complex(nan, 1.0)),
        (1e-320 + 1e-320j, 3e-320 - 1e-320j), (5 - 7j, 1e308 + 1e308j),
    ]
    for i, (a, b) in enumerate(quotients):
        cases.append(C(f"cdiv_{i}", "cdiv", a, b))
    cases.append(C("cdiv_by_zero", "cdiv", 1 + 1j, 0j))
    powers = [
        (1 + 2j, 3 + 0j), (1 + 2j, -3 + 0j), (0.5 + 0.5j, 2.5 + 1j), (0j, 2 + 0j), (0j, 0j), (2 + 3j, 0j),
        (2 + 0j, 0.5 + 0j), (-1 + 0j, 0.5 + 0j), (1e200 + 1e200j, 2 + 0j), (1e-100 + 1e-100j, -2 + 0j),
        (complex(inf, 0.0), 2 + 0j), (1j, 1j), (complex(-0.0, 0.0), 3 + 0j), (1.5 - 0.5j, complex(nan, 0.0)),
    ]
    # A power in polar form goes through libm's pow, atan2, exp, log, cos
    # and sin, whose last places differ between C libraries and
    # JavaScript's Math (the wasm backend's); repeated squaring is exact
    # arithmetic everywhere.
    def polar(a, b):
        squaring = b.imag == 0 and abs(b.real) <= 100 and b.real == math.floor(b.real)
        return a != 0 and b != 0 and not squaring

    for i, (a, b) in enumerate(powers):
        cases.append(C(f"cpow_{i}", "cpow", a, b, tol="ulps=4" if polar(a, b) else None))
    for i, (a, n) in enumerate([(1 + 1j, 100.0), (1 + 1j, 101.0), (1.5 - 0.5j, -7.0), (1 + 1j, -100.0),
                                (0.9 + 0.1j, 100.5), (-2 + 0j, 3.0)]):
        cases.append(C(f"cpow_int_{i}", "cpow_int", a, n, tol="ulps=4" if polar(a, complex(n)) else None))
    for i, (a, b) in enumerate([((1.5, 2.0), (0.25, -4.0)), ((0.1, 0.2), (0.3, -0.7)), ((1e30, 1e30), (1e-30, 1e-30)),
                                ((-0.0, 0.0), (2.0, 0.0)), ((inf, 1.0), (1.0, 1.0))]):
        # NumPy divides Complex64 in Float32 by its own algorithm; postc forms
        # each part by CPython's in Float64 and rounds it once, which can
        # differ in the last place.
        cases.append(C(f"cdiv64_{i}", "cdiv64", c64(*a), c64(*b), tol="ulps=1", allow_over=True))
    return cases


@program("casts")
def _casts():
    nan, inf = math.nan, math.inf
    cases = []
    for x in (nan, inf, -inf, 127.9, -128.9, 200.0, -0.9, 3.99):
        cases.append(C(f"f64_to_i8_{x}", "f64_to_i8", x))
    for x in (nan, -1.5, 65535.5, 70000.0, 1234.9):
        cases.append(C(f"f64_to_u16_{x}", "f64_to_u16", x))
    for x in (2147483647.9, -2147483649.0, 1e10, -7.7):
        cases.append(C(f"f64_to_i32_{x}", "f64_to_i32", x))
    for x in (9.3e18, -9.3e18, 2.0**62, nan, -inf):
        cases.append(C(f"f64_to_i64_{x}", "f64_to_i64", x))
    for x in (1.9e19, -1.0, 2.0**63, 1e300):
        cases.append(C(f"f64_to_u64_{x}", "f64_to_u64", x))
    for x in (255.5, 256.0, -0.5, f32v(3.7)):
        cases.append(C(f"f32_to_u8_{x}", "f32_to_u8", x))
    for x in (inf, -inf, -32768.0, 1000.5, 65504.0):
        cases.append(C(f"f16_to_i16_{x}", "f16_to_i16", f16v(x)))
    for n in (300, -129, 127, -(2**63)):
        cases.append(C(f"i64_to_i8_{n}", "i64_to_i8", n))
    for n in (-1, 2**32, 2**32 + 5, -(2**31)):
        cases.append(C(f"i64_to_u32_{n}", "i64_to_u32", n))
    for n in (2**64 - 1, 2**63, 5):
        cases.append(C(f"u64_to_i64_{n}", "u64_to_i64", n))
    for n in (-1, -128, 5):
        cases.append(C(f"i8_to_u16_{n}", "i8_to_u16", n))
    for n in (0, 255):
        cases.append(C(f"u8_to_i32_{n}", "u8_to_i32", n))
    for x in (0.0, -0.0, nan, 1e-300, -2.0):
        cases.append(C(f"to_bool_{x}", "to_bool", x))
    for n in (0, -3):
        cases.append(C(f"int_to_bool_{n}", "int_to_bool", n))
    for b in (True, False):
        cases.append(C(f"bool_to_int_{b}", "bool_to_int", b))
    cases.append(C("count_true_tft", "count_true", True, False, True))
    cases.append(C("count_true_fff", "count_true", False, False, False))
    for x in (0.1, 65504.0, 65520.0, 1e6, -1e-8, 2.0**-24, 0.333333333):
        cases.append(C(f"to_f16_{x}", "to_f16", x, allow_over=True))
    for x in (0.1, 1e40, 1.0000001, -3.4028235677973366e38):
        cases.append(C(f"to_f32_{x}", "to_f32", x, allow_over=True))
    for x in (f16v(0.1), f16v(-65504.0), inf):
        cases.append(C(f"f16_to_f64_{x}", "f16_to_f64", x))
    for n in (2**53 + 1, -(2**63), 12345):
        cases.append(C(f"i64_to_f64_{n}", "i64_to_f64", n))
    for n in (2**64 - 1, 2**24 + 1, 2**63 + 2**39 + 1):
        cases.append(C(f"u64_to_f32_{n}", "u64_to_f32", n))
    cases.append(C("real_part", "real_part", -2.5 + 7j))
    cases.append(C("real_part_nan", "real_part", complex(nan, 1.0)))
    cases.append(C("narrow_complex", "narrow_complex", 0.1 + 1e40j, allow_over=True))
    cases.append(C("real_to_complex", "real_to_complex", f32v(-1.25)))
    for x in (3.99, -3.99, -0.0, 1e15 + 0.5):
        cases.append(C(f"py_int_{x}", "py_int", x))
    for n in (7, -(2**62), 2**53 + 1):
        cases.append(C(f"py_float_{n}", "py_float", n))
    for x in (2.5, -2.5, 0.49, -0.51, 0.0):
        cases.append(C(f"round_half_away_{x}", "round_half_away", x))
    return cases


@program("fp_rounding")
def _fp_rounding():
    xs = f32(200, scale=1000.0)
    return [
        C("harmonic16_10", "harmonic16", 10),
        C("harmonic16_600", "harmonic16", 600),
        C("harmonic16_5000", "harmonic16", 5000),
        C("harmonic32_1000", "harmonic32", 1000),
        C("tenths16_10", "tenths16", 10),
        C("tenths16_1000", "tenths16", 1000),
        C("naive32", "naive32", xs),
        C("kahan32", "kahan32", xs),
        C("naive32_cancel", "naive32", arr([1e8, 1.0, -1e8, 1.0], np.float32)),
        C("kahan32_cancel", "kahan32", arr([1e8, 1.0, -1e8, 1.0], np.float32)),
        C("kahan32_tenths", "kahan32", np.full(1000, 0.1, np.float32)),
        C("naive32_tenths", "naive32", np.full(1000, 0.1, np.float32)),
        C("f16_overflow_3", "f16_overflow", f16v(1.5), 3),
        C("f16_overflow_20", "f16_overflow", f16v(1.5), 20, allow_over=True),
        C("neg_zero_0", "neg_zero", 0.0),
        C("neg_zero_neg", "neg_zero", -0.0),
        C("neg_zero_nan", "neg_zero", math.nan),
        C("abs32_neg_zero", "abs32", -0.0),
        C("abs32_neg_inf", "abs32", -math.inf),
        C("abs32_nan", "abs32", math.nan),
        C("abs32", "abs32", f32v(-2.75)),
        C("midpoint16", "midpoint16", f16v(1.0), f16v(2.0)),
        C("midpoint16_overflow", "midpoint16", f16v(60000.0), f16v(60000.0), allow_over=True),
        C("ulp_step_1", "ulp_step", 1.0),
        C("ulp_step_big", "ulp_step", 2.0**53),
        C("ulp_step_odd", "ulp_step", 2.0**53 + 2.0),
    ]


@program("stats")
def _stats():
    x = f64(9)
    return [
        C("mean", "mean", x),
        C("mean_one", "mean", arr([4.25], np.float64)),
        C("mean_strided", "mean", every_other(f64(6))),
        C("variance", "variance", x),
        C("variance_const", "variance", np.full(5, 2.5)),
        C("stddev", "stddev", x),
        C("stddev_known", "stddev", arr([2, 4, 4, 4, 5, 5, 7, 9], np.float64)),
        C("value_range", "value_range", x),
        C("value_range_reversed", "value_range", reversed_view(f64(7))),
        C("argmax", "argmax", x),
        C("argmax_ties", "argmax", arr([1.0, 3.0, 3.0, -1.0], np.float64)),
        C("zscore", "zscore", f64(6), zeros(6, np.float64)),
        C("zscore_strided_out", "zscore", f64(4), every_other(zeros(4, np.float64))),
        C("median_odd", "median_of_sorted_copy", f64(7)),
        C("median_even", "median_of_sorted_copy", f64(8)),
        C("median_one", "median_of_sorted_copy", arr([-1.5], np.float64)),
        C("moving_sum_3", "moving_sum", f64(8), 3, zeros(8, np.float64)),
        C("moving_sum_1", "moving_sum", f64(4), 1, zeros(4, np.float64)),
        C("moving_sum_wide", "moving_sum", f64(4), 10, zeros(4, np.float64)),
        C("count_above", "count_above", x, 0.0),
        C("count_above_nan", "count_above", arr([1.0, math.nan, 3.0], np.float64), 0.5),
    ]


@program("slicing")
def _slicing():
    ramp = arr(list(range(1, 11)), np.int64)
    cases = [
        C("row_total", "row_total", ints(np.int64, -50, 50, 3, 4), 1),
        C("row_total_negative", "row_total", ints(np.int64, -50, 50, 3, 4), -1),
        C("row_total_transposed", "row_total", transposed(ints(np.int64, -50, 50, 3, 5)), 2),
        C("row_total_fortran", "row_total", fortran(ints(np.int64, -50, 50, 4, 3)), 0),
        C("row_total_out_of_range", "row_total", ints(np.int64, -50, 50, 3, 4), 3),
        C("row_total_negative_out_of_range", "row_total", ints(np.int64, -50, 50, 3, 4), -4),
        C("column_weighted", "column_weighted", f64(3, 4), 2),
        C("column_weighted_fortran", "column_weighted", fortran(f64(4, 3)), -1),
        C("column_weighted_strided", "column_weighted", every_other(f64(3, 2)), 1),
        C("column_weighted_out_of_range", "column_weighted", f64(3, 4), 4),
        C("column_weighted_no_rows", "column_weighted", np.zeros((0, 3)), 1),
        C("slice_len_empty_crossed", "slice_len", ramp, 7, 3, 1),
        C("slice_len_reversed_empty", "slice_len", ramp, 3, 7, -1),
        C("slice_len_huge_step", "slice_len", ramp, 0, 10, 1 << 62),
        C("slice_len_huge_negative_step", "slice_len", ramp, -1, -100, -(1 << 62)),
        C("slice_len_of_empty", "slice_len", zeros(0, np.int64), -5, 5, -2),
        C("slice_weighted_step_zero", "slice_weighted", ramp, 0, 5, 0),
        C("head_tail", "head_tail", ramp, 3),
        C("head_tail_zero", "head_tail", ramp, 0),
        C("head_tail_past_end", "head_tail", ramp, 20),
        C("head_tail_reversed_input", "head_tail", reversed_view(ramp), 4),
        C("reversed_view", "reversed_view", ramp),
        C("reversed_view_strided", "reversed_view", every_other(ramp)),
        C("reversed_view_reversed", "reversed_view", reversed_view(ramp)),
        C("reversed_view_empty", "reversed_view", zeros(0, np.int64)),
        C("stepped", "stepped", f64(9), 1, 8, 3),
        C("stepped_back", "stepped", f64(9), -2, 0, -2),
        C("stepped_back_strided", "stepped", every_other(f64(7)), 5, -8, -3),
        C("stepped_clamped", "stepped", f64(5), -100, 100, 2),
        C("stepped_empty", "stepped", f64(5), 4, 4, 1),
        C("row", "row", f64(3, 4), 2),
        C("row_fortran", "row", fortran(f64(3, 4)), -3),
        C("row_out_of_range", "row", f64(3, 4), -5),
        C("column", "column", transposed(f64(4, 3)), 0),
        C("column_of_empty_rows", "column", np.zeros((0, 2)), 1),
        C("block", "block", ints(np.int64, -9, 9, 4, 5), 1, 3, 1, -1),
        C("block_fortran", "block", fortran(ints(np.int64, -9, 9, 4, 5)), -3, 100, 0, 2),
        C("block_empty", "block", ints(np.int64, -9, 9, 4, 5), 2, 1, 0, 5),
        C("flipped", "flipped", ints(np.int64, -9, 9, 3, 5)),
        C("flipped_transposed", "flipped", transposed(ints(np.int64, -9, 9, 4, 3))),
        C("transposed", "transposed", ints(np.int32, -9, 9, 2, 3)),
        C("transposed_fortran", "transposed", fortran(ints(np.int32, -9, 9, 3, 2))),
        C("transposed_call", "transposed_call", ints(np.int32, -9, 9, 3, 4)),
        C("as_row", "as_row", f64(4)),
        C("as_column", "as_column", every_other(f64(3))),
        C("last_plane", "last_plane", ints(np.int64, -9, 9, 2, 3, 4), -1),
        C("last_plane_out_of_range", "last_plane", ints(np.int64, -9, 9, 2, 3, 4), 4),
        C("middle", "middle", ints(np.int64, -9, 9, 2, 3, 4), 1),
        C("middle_fortran", "middle", fortran(ints(np.int64, -9, 9, 2, 3, 4)), -2),
        C("shape_of_block", "shape_of_block", ints(np.int64, -9, 9, 4, 5), 1, 1),
        C("shape_of_block_past_end", "shape_of_block", ints(np.int64, -9, 9, 4, 5), 9, -2),
        C("matvec", "matvec", f64(3, 4), f64(4), zeros(3, np.float64)),
        C("matvec_transposed", "matvec", transposed(f64(2, 3)), every_other(f64(3)), zeros(2, np.float64)),
        C("scale_row", "scale_row", f64(3, 2), 1, -0.5),
        C("scale_row_fortran", "scale_row", fortran(f64(2, 3)), -1, 2.0),
        C("fill_column", "fill_column", ints(np.int64, -9, 9, 3, 4), -2, 7),
        C("fill_column_transposed", "fill_column", transposed(ints(np.int64, -9, 9, 3, 2)), 0, 5),
        C("reverse_in_place", "reverse_in_place", arr([1, 2, 3, 4, 5], np.int64)),
        C("reverse_in_place_strided", "reverse_in_place", every_other(arr([1, 2, 3, 4], np.int64))),
        C("set_transposed", "set_transposed", ints(np.int32, -9, 9, 2, 3), 2, 1, np.int32(42)),
        C("set_transposed_out_of_range", "set_transposed", ints(np.int32, -9, 9, 2, 3), 1, 2, np.int32(42)),
    ]
    cases += [
        C("clear_column", "clear_column", f64(3, 4), 1, -2.5),
        C("clear_column_fortran", "clear_column", fortran(f64(3, 4)), -1, 7.0),
        C("clear_column_out_of_range", "clear_column", f64(3, 4), 4, 0.0),
        C("shift_right", "shift_right", arr([1, 2, 3, 4, 5], np.int64)),
        C("shift_right_reversed", "shift_right", reversed_view(arr([1, 2, 3, 4, 5], np.int64))),
        C("shift_right_empty", "shift_right", zeros(0, np.int64)),
        C("shift_left", "shift_left", every_other(arr([1, 2, 3, 4, 5], np.int64))),
        C("put_range", "put_range", zeros(6, np.float64), arr([1.5, -2.0, 3.25], np.float64), 2),
        C("put_range_mismatch", "put_range", zeros(6, np.float64), arr([1.5, -2.0, 3.25], np.float64), 4),
        C("put_range_one", "put_range", zeros(6, np.float64), arr([9.0], np.float64), 0),
        C("put_rows", "put_rows", np.zeros((4, 3)), arr([1.0, 2.0, 3.0], np.float64)),
        C("put_rows_transposed", "put_rows", transposed(np.zeros((3, 4))), arr([1.0, 2.0, 3.0, 4.0], np.float64)),
        C("put_rows_mismatch", "put_rows", np.zeros((4, 3)), arr([1.0, 2.0], np.float64)),
        C("swap_halves", "swap_halves", ints(np.int32, -9, 9, 4, 3)),
        C("swap_halves_fortran", "swap_halves", fortran(ints(np.int32, -9, 9, 6, 2))),
        C("row_maxima", "row_maxima", f64(3, 4), zeros(3, np.float64)),
        C("row_maxima_transposed", "row_maxima", transposed(f64(4, 2)), every_other(zeros(4, np.float64))),
        C("row_maxima_no_rows", "row_maxima", np.zeros((0, 4)), zeros(0, np.float64)),
        C("scale_rows", "scale_rows", f64(3, 2)),
        C("scale_rows_fortran", "scale_rows", fortran(f64(2, 3))),
        C("plane_corners", "plane_corners", ints(np.int64, 0, 4, 3, 2, 2)),
        C("plane_corners_fortran", "plane_corners", fortran(ints(np.int64, 0, 4, 3, 3, 2))),
        C("row_dots", "row_dots", f64(3, 4), f64(2, 4), zeros(2, np.float64)),
        C("raveled", "raveled", ints(np.int64, -9, 9, 3, 4)),
        C("raveled_fortran", "raveled", fortran(ints(np.int64, -9, 9, 3, 4))),
        C("raveled_transposed", "raveled", transposed(ints(np.int64, -9, 9, 2, 3))),
        C("raveled_strided_rows", "raveled", every_other(ints(np.int64, -9, 9, 3, 2))),
        C("raveled_empty", "raveled", np.zeros((0, 3), np.int64)),
        C("raveled_one_column", "raveled", transposed(ints(np.int64, -9, 9, 1, 4))),
        C("ravel_write", "ravel_write", ints(np.int64, -9, 9, 2, 3)),
        C("ravel_write_fortran", "ravel_write", fortran(ints(np.int64, -9, 9, 2, 3))),
        C("ravel_write_reversed", "ravel_write", reversed_view(ints(np.int64, -9, 9, 3, 2))),
        C("ravel_write_3d", "ravel_write3", ints(np.int64, -9, 9, 2, 2, 3)),
        C("ravel_write_3d_transposed", "ravel_write3", transposed(ints(np.int64, -9, 9, 2, 2, 3))),
        C("row_dots_views", "row_dots", transposed(f64(4, 3)), fortran(f64(4, 3)), zeros(4, np.float64)),
        C("row_self_dots", "row_self_dots", f64(3, 4)),
        C("row_self_dots_transposed", "row_self_dots", transposed(f64(5, 2))),
        C("row_self_dots_no_columns", "row_self_dots", np.zeros((3, 0))),
        C("tails_first", "tails_first", f64(4, 3)),
        C("tails_first_fortran", "tails_first", fortran(f64(3, 2))),
        C("tails_first_one_column", "tails_first", f64(2, 1)),
        C("scratch_halves", "scratch_halves", 9),
        C("scratch_halves_empty", "scratch_halves", 0),
        C("tuple_into_rows", "tuple_into_rows", 3, 2),
        C("tuple_into_rows_empty", "tuple_into_rows", 0, 2),
        C("tuple_into_rows_mismatch", "tuple_into_rows", 2, 3),
        C("tuple_into_rows_broadcast_none", "tuple_into_rows", 2, 0),
        C("tuple_into_ints", "tuple_into_ints", zeros(4, np.int32)),
    ]
    for k, (lo, hi, st) in enumerate([(0, 10, 1), (-3, 10, 1), (9, -11, -1), (1, 9, 3), (8, 1, -3),
                                      (-1, -10, -4), (-100, 100, 7), (100, -100, -7), (2, 2, -1)]):
        cases.append(C(f"slice_weighted_{k}", "slice_weighted", ramp, lo, hi, st))
        cases.append(C(f"slice_weighted_strided_{k}", "slice_weighted", every_other(ramp), lo, hi, st))
    return cases


@program("array_bindings")
def _array_bindings():
    xs = arr([1.5, -2.0, 3.25, 4.0, -0.5], np.float64)
    return [
        C("padded", "padded_sum", xs, 2),
        C("unpadded", "padded_sum", xs, 0),
        C("unpadded_strided", "padded_sum", every_other(xs), 0),
        C("padded_empty", "padded_sum", zeros(0, np.float64), 1),
        C("copied_then_written", "copied_then_written", xs),
        C("copied_then_written_reversed", "copied_then_written", reversed_view(xs)),
        C("swapped", "swapped", xs, 1),
        C("swapped_out_of_bounds", "swapped", xs, 5),
        C("written_result", "written_result", xs),
        C("written_view_of_new", "written_view_of_new", xs),
        C("last_binding_wins", "last_binding_wins", xs, 3),
        C("last_binding_wins_never", "last_binding_wins", xs, 0),
    ]


@program("round_digits")
def _round_digits():
    rng = np.random.default_rng(12)
    # Doubles of every scale, values a decimal half away from a double,
    # and the edges of the exact range.
    # Powers of ten by CPython's own pow: NumPy's vectorized power gives
    # other last bits on other CPUs, and the inputs must be the same
    # everywhere.
    wide = rng.standard_normal(400) * np.array([10.0 ** int(k) for k in rng.integers(-30, 30, 400)])
    halves = np.array([(k + 0.5) / 10.0 ** d for d in (0, 1, 2, 3, 7, 15) for k in range(-40, 40, 3)])
    edges = np.array([2.675, 0.285, 1.005, 0.125, 0.375, -0.5, 0.5, 1.5, 2.5, -2.5, 0.0, -0.0, 5e-324, -5e-324,
                      2.0 ** 52, 2.0 ** 52 + 0.5, 2.0 ** 53, 2.0 ** 53 + 2, -(2.0 ** 53), 4503599627370497.5,
                      9007199254740991.0, 1e16, 1e22, 5e21, 1.5e22, 2.5e22, -1.5e22, 1e300, 1.7976931348623157e308,
                      -1.7976931348623157e308, np.inf, -np.inf, np.nan, 1e-300, 123456.789, 15.0, 25.0, 35.0, 45.0],
                     np.float64)
    xs = np.concatenate([wide, halves, edges])
    scaled = np.concatenate([edges / 10.0 ** d for d in (2, 7, 15, 16, 17, 22)] +
                            [edges * 10.0 ** d for d in (1, 5, 22)])
    cases = []
    for f in ['round_m22', 'round_m5', 'round_m1', 'round_0', 'round_1', 'round_2', 'round_3', 'round_7', 'round_15', 'round_16', 'round_17', 'round_22']:
        cases.append(C(f, f, xs))
        cases.append(C(f + "_scaled", f, scaled))
    cases += [
        C("numpy_scalars", "numpy_scalars", arr([2.675, 0.285, -1.005, 1e300], np.float64),
          arr([0.25, -0.35, 2.5, 1e30], np.float32)),
        C("of_ints", "of_ints", 12345, 3),
        C("of_ints_negative", "of_ints", -7, 1),
    ]
    return cases


@program("printing")
def _printing():
    specials64 = arr([0.0, -0.0, np.inf, -np.inf, np.nan, 1e16, 9999999999999998.0, 1e-4, 9.99e-5, 5e-324,
                      1.7976931348623157e308, 0.1, 1 / 3, 123456789.0, 1e22, 2.5e-8], np.float64)
    specials32 = arr([0.0, -0.0, np.inf, -np.inf, np.nan, 1e6, 999999.0, 1e-4, 1.01e-4, 1e-45,
                      3.4028235e38, 0.1, 1 / 3, 123456789.0, 16777216.0, 2.5e-8], np.float32)
    return [
        C("progress", "progress", 100, 1e-6),
        C("progress_stopped", "progress", 3, 1e-6),
        C("numbers", "numbers", np.int32(-7), np.uint64(2**64 - 1), np.uint8(200), np.int8(-128),
          np.float64(0.1), np.float32(0.1), np.bool_(True)),
        C("numbers_large", "numbers", np.int32(2**31 - 1), np.uint64(0), np.uint8(0), np.int8(127),
          np.float64(-1234.5678e10), np.float32(3.0e-5), np.bool_(False)),
        C("separated", "separated", 4),
        C("separated_none", "separated", 0),
        C("verbose_only_quiet", "verbose_only", f64(5), False),
        C("verbose_only", "verbose_only", f64(5), True),
        C("special_floats", "special_floats", specials64, specials32),
        C("optional_neither", "optional", None, None),
        C("optional_x", "optional", 2.5, None),
        C("optional_both", "optional", -0.0, 7),
        C("then_panics", "then_panics", 5),
        C("then_panics_not", "then_panics", 1),
    ]


@program("histograms")
def _histograms():
    nan = np.nan
    inf = np.inf
    on_edges = arr([-1.0, -0.5, 0.0, 0.5, 1.0, 1.0, -1.5, 2.0, 0.25, -0.999], np.float64)
    data = f64(60)
    return [
        C("trace_square", "trace_f64", f64(3, 3)),
        C("trace_wide", "trace_f64", f64(2, 4)),
        C("trace_tall", "trace_f64", f64(4, 2)),
        C("trace_long", "trace_f64", f64(20, 20)),
        C("trace_transposed", "trace_f64", transposed(f64(3, 4))),
        C("trace_strided", "trace_f64", every_other(f64(3, 3))),
        C("trace_empty", "trace_f64", np.zeros((0, 3), np.float64)),
        C("trace_i8", "trace_i8", arr([[127, 1, 3], [5, 127, -2], [0, 0, 100]], np.int8)),
        C("trace_bools", "trace_bools", arr([[True, False], [True, True], [False, False]], np.bool_)),
        C("trace_above", "trace_offset", f64(3, 4), 1),
        C("trace_below_two", "trace_offset", f64(4, 3), -2),
        C("trace_past_columns", "trace_offset", f64(3, 4), 4),
        C("trace_past_rows", "trace_offset", f64(3, 4), -3),
        C("trace_below", "trace_below", ints(np.int32, -100, 100, 3, 3)),
        C("trace_method", "trace_method", f32(4, 3)),
        C("trace_method_fortran", "trace_method", fortran(f32(3, 3))),
        C("eye_square", "eye_square", 3),
        C("eye_none", "eye_square", 0),
        C("eye_negative", "eye_square", -1),
        C("eye_wide", "eye_wide", 2, 4, 1),
        C("eye_tall_below", "eye_wide", 4, 2, -1),
        C("eye_past_columns", "eye_wide", 3, 3, 3),
        C("eye_past_rows", "eye_wide", 3, 3, -7),
        C("eye_int", "eye_int", 3, -1),
        C("eye_bools", "eye_bools", 3),
        C("identity_u8", "identity_u8", 3),
        C("eye_trace", "eye_trace", 3, 5, 2),
        C("hist_auto", "hist_auto", data, 10),
        C("hist_auto_one_bin", "hist_auto", data, 1),
        C("hist_auto_edges", "hist_auto", arr([0.0, 1.0, 1.0, 0.5, 0.25, 0.75, 0.2], np.float64), 4),
        C("hist_auto_thirds", "hist_auto", arr([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7], np.float64), 3),
        C("hist_auto_same", "hist_auto", arr([2.0, 2.0, 2.0], np.float64), 3),
        C("hist_auto_empty", "hist_auto", zeros(0, np.float64), 4),
        C("hist_auto_strided", "hist_auto", every_other(f64(9)), 5),
        C("hist_auto_nan", "hist_auto", arr([1.0, nan, 2.0], np.float64), 3),
        C("hist_auto_inf", "hist_auto", arr([1.0, inf, 2.0], np.float64), 3),
        C("hist_auto_minus_inf", "hist_auto", arr([-inf, 2.0], np.float64), 3),
        C("hist_auto_zero_bins", "hist_auto", data, 0),
        C("hist_default", "hist_default", f64(25)),
        C("hist_range", "hist_range", on_edges),
        C("hist_range_random", "hist_range", f64(40, scale=1.5)),
        C("hist_range_args", "hist_range_args", on_edges, -0.5, 0.5, 2),
        C("hist_range_args_same", "hist_range_args", on_edges, 1.0, 1.0, 4),
        C("hist_range_args_reversed", "hist_range_args", on_edges, 2.0, 1.0, 4),
        C("hist_range_args_nan", "hist_range_args", on_edges, nan, 1.0, 4),
        C("hist_range_args_tiny", "hist_range_args", on_edges, 0.0, 5e-324, 3),
        C("hist_int_range", "hist_int_range", ints(np.int32, -3, 12, 40)),
        C("hist_ints", "hist_ints", ints(np.int64, -50, 50, 30)),
        C("hist_ints_same", "hist_ints", arr([7, 7, 7], np.int64)),
        C("hist_ints_empty", "hist_ints", zeros(0, np.int64)),
        C("hist_f32", "hist_f32", f32(40)),
        C("hist_f32_same", "hist_f32", arr([1.5, 1.5], np.float32)),
        C("hist_f32_empty", "hist_f32", zeros(0, np.float32)),
        C("hist_f32_range", "hist_f32_range", arr([0.1, 0.3, 0.5, 0.7, 0.05, 0.71, 0.2999, 0.3001], np.float32)),
        C("hist_matrix", "hist_matrix", f64(4, 5)),
        C("hist_matrix_transposed", "hist_matrix", transposed(f64(3, 4))),
        C("hist_edges", "hist_edges", arr([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 3.5, -1.0, nan, 2.5, 1.0], np.float64),
          arr([0.0, 1.0, 1.0, 2.0, 3.0], np.float64)),
        C("hist_edges_random", "hist_edges", data, arr([-10.0, -2.5, 0.0, 0.125, 7.0], np.float64)),
        C("hist_edges_strided", "hist_edges", data, every_other(arr([-5.0, 0.0, 5.0], np.float64))),
        C("hist_edges_decreasing", "hist_edges", data, arr([0.0, 2.0, 1.0], np.float64)),
        C("hist_edges_none", "hist_edges", data, zeros(0, np.float64)),
        C("hist_edges_one", "hist_edges", data, arr([1.0], np.float64)),
        C("hist_int_edges", "hist_int_edges", arr([0.0, 1.5, 2.0, 4.0, 3.9, -0.1], np.float64), arr([0, 2, 4], np.int64)),
        C("hist_edges_matrix", "hist_edges_matrix", ints(np.int32, 0, 5, 3, 4), arr([0.0, 1.5, 3.0, 5.0], np.float64)),
        C("hist_positive_bins", "hist_positive_bins", data, 3),
        C("hist_zero_bins", "hist_positive_bins", data, 0),
        C("hist_negative_bins", "hist_positive_bins", data, -2),
        C("hist_finite", "hist_finite", data, 5.0),
        C("hist_finite_inf", "hist_finite", data, inf),
        C("hist_finite_nan", "hist_finite", data, nan),
        C("hist_float_edges", "hist_float_edges", data, -1.0, 3.0),
        C("hist_float_edges_inf", "hist_float_edges", data, 0.0, inf),
        C("hist_float_edges_minus_inf", "hist_float_edges", data, -inf, 2.0),
        C("hist_float_edges_minus_zero", "hist_float_edges", data, -0.0, nan),
        C("arviz_histogram", "arviz_histogram", f64(100), np.linspace(-10.0, 10.0, 11)),
        C("arviz_histogram_outside", "arviz_histogram", arr([-3.0, 0.5, 1.0, 2.0, 9.0], np.float64),
          arr([0.0, 0.5, 1.5, 2.0], np.float64)),
        C("hist_maybe_range_none", "hist_maybe_range", data, 7, None),
        C("hist_maybe_range_given", "hist_maybe_range", data, 7, (-1.0, 2.5)),
        C("hist_maybe_range_empty_none", "hist_maybe_range", zeros(0, np.float64), 3, None),
        C("hist_maybe_range_flat", "hist_maybe_range", arr([2.0, 2.0, 2.0], np.float64), 4, None),
        C("hist_maybe_range_nan", "hist_maybe_range", arr([1.0, nan], np.float64), 4, None),
        C("hist_maybe_range_reversed", "hist_maybe_range", data, 4, (3.0, 1.0)),
        C("arviz_histogram_range_none", "arviz_histogram_range", f64(50), np.linspace(-5.0, 5.0, 6), None),
        C("arviz_histogram_range_given", "arviz_histogram_range", f64(50), np.linspace(-5.0, 5.0, 6), (0.0, 1.0)),
        C("count_maybe_range_none", "count_maybe_range", arr([3, -7, 12, 0, 5], np.int32), None),
        C("count_maybe_range_given", "count_maybe_range", arr([3, -7, 12, 0, 5], np.int32), (0, 6)),
    ]


@program("array_methods")
def _array_methods():
    ramp = arr(list(range(1, 13)), np.int64)
    floats = arr([2.5, -2.5, 0.999, -0.999, 1e9, -7.0, 0.0, -0.0, 123456.75], np.float64)
    return [
        C("reshaped", "reshaped", ramp, 3, 4),
        C("reshaped_unknown_rows", "reshaped", ramp, -1, 6),
        C("reshaped_strided", "reshaped", every_other(ramp), 4, 3),
        C("reshaped_reversed", "reshaped", reversed_view(ramp), 4, -1),
        C("reshaped_empty", "reshaped", zeros(0, np.int64), 5, 0),
        C("reshaped_mismatch", "reshaped", ramp, 5, 2),
        C("reshaped_unknown_mismatch", "reshaped", ramp, 5, -1),
        C("reshaped_unknown_first_mismatch", "reshaped", ramp, -1, 5),
        C("reshaped_product_overflows", "reshaped", ramp, 1 << 62, 1 << 62),
        C("reshaped_product_wraps_to_zero", "reshaped", zeros(0, np.int64), 1 << 32, 1 << 32),
        C("reshaped_tuple", "reshaped_tuple", f64(3, 4), 6),
        C("reshaped_tuple_fortran", "reshaped_tuple", fortran(f64(3, 4)), 2),
        C("reshaped_tuple_transposed", "reshaped_tuple", transposed(f64(2, 3)), 3),
        C("reshaped_tuple_strided", "reshaped_tuple", every_other(f64(4, 2)), 1),
        C("reshaped_tuple_empty", "reshaped_tuple", np.zeros((0, 4)), 3),
        C("reshaped_tuple_empty_zero", "reshaped_tuple", np.zeros((0, 4)), 0),
        C("reshaped_tuple_not_dividing", "reshaped_tuple", f64(3, 4), 5),
        C("as_length", "as_length", fortran(f64(2, 3)), 6),
        C("as_length_mismatch", "as_length", f64(2, 3), 4),
        C("flat_of", "flat_of", ints(np.int64, -9, 9, 3, 4)),
        C("flat_of_fortran", "flat_of", fortran(ints(np.int64, -9, 9, 3, 4))),
        C("flat_of_transposed", "flat_of", transposed(ints(np.int64, -9, 9, 2, 5))),
        C("flat_of_empty", "flat_of", np.zeros((3, 0), np.int64)),
        C("blocks", "blocks", ints(np.int32, -9, 9, 4, 6), 3),
        C("blocks_transposed", "blocks", transposed(ints(np.int32, -9, 9, 6, 4)), -1),
        C("blocks_odd", "blocks", ints(np.int32, -9, 9, 3, 3), 3),
        C("two_unknowns", "two_unknowns", f64(6), 2),
        C("leading_unknown", "leading_unknown", f64(12)),
        C("leading_unknown_mismatch", "leading_unknown", f64(10)),
        C("row_sums", "row_sums", f64(12), 4),
        C("row_sums_strided", "row_sums", every_other(f64(6)), 2),
        C("row_sums_empty", "row_sums", zeros(0, np.float64), 3),
        C("write_through", "write_through", ramp, 3),
        C("write_through_reversed", "write_through", reversed_view(ramp), 2),
        C("write_through_transposed", "write_through_transposed", ints(np.int64, -9, 9, 2, 3)),
        C("write_through_transposed_one_row", "write_through_transposed", ints(np.int64, -9, 9, 1, 4)),
        C("write_through_transposed_one_column", "write_through_transposed", ints(np.int64, -9, 9, 4, 1)),
        C("flattened", "flattened", f64(3, 4)),
        C("flattened_fortran", "flattened", fortran(f64(3, 4))),
        C("flattened_transposed", "flattened", transposed(f64(3, 2))),
        C("flattened_strided", "flattened", every_other(f64(3, 2))),
        C("flattened_empty", "flattened", np.zeros((0, 5))),
        C("flattened_3d", "flattened_3d", ints(np.int16, -9, 9, 2, 3, 4)),
        C("flattened_3d_fortran", "flattened_3d", fortran(ints(np.int16, -9, 9, 2, 3, 2))),
        C("flatten_is_copy", "flatten_is_copy", ramp),
        C("flatten_is_copy_empty", "flatten_is_copy", zeros(0, np.int64)),
        C("to_int32", "to_int32", floats),
        C("to_int32_reversed", "to_int32", reversed_view(floats)),
        C("to_int32_empty", "to_int32", zeros(0, np.float64)),
        C("to_float32", "to_float32", arr([[1, -2, 16777217], [2**53 + 1, 0, -(2**40) - 3]], np.int64)),
        C("to_float32_transposed", "to_float32", transposed(ints(np.int64, -9, 9, 2, 3))),
        C("to_float", "to_float", fortran(ints(np.int32, -9, 9, 3, 2))),
        C("to_int", "to_int", arr([1.75, -1.75, 65504.5, -0.5], np.float32)),
        C("to_bool", "to_bool", arr([0.0, -0.0, math.nan, 1e-300, -2.0, math.inf], np.float64)),
        C("to_bool_strided", "to_bool", every_other(arr([0.0, 1.0, 2.0, 0.0, -0.0, 5.0], np.float64))),
        C("wrapped_total", "wrapped_total", arr([255, 256, -1, -256, 300, 32767, -32768], np.int16)),
        C("astype_is_copy", "astype_is_copy", f64(5)),
        C("conjugated", "conjugated", arr([[1, 2, 3], [4, 5, 6]], np.int32)),
        C("conjugated_transposed", "conjugated", transposed(arr([[1, -2], [3, 4], [-5, 6]], np.int32))),
        C("conjugates", "conjugates", arr([1 + 2j, -3.5 - 0.5j, 0j], np.complex128), arr([0.5, -2.0], np.float32), True),
        C("conjugates_reversed", "conjugates", reversed_view(arr([2j, 1 - 1j], np.complex128)), arr([], np.float32), False),
        C("row_hubs", "row_hubs", f64(3, 4).astype(np.float32), False),
        C("row_hubs_taken", "row_hubs", f64(3, 4).astype(np.float32), True),
        C("row_hubs_empty", "row_hubs", zeros((0, 4), np.float32), True),
        C("running_from_end", "running_from_end", arr([3, -1, 4, 1, 5], np.int64), False),
        C("running_from_end_wrong", "running_from_end", arr([3, -1, 4, 1, 5], np.int64), True),
    ]


@program("tuple_params")
def _tuple_params():
    a = arr([0.5, 1.5, -2.0, 4.0, 8.25], np.float64)
    return [
        C("calls", "calls", a, 1, 4, 0.25),
        C("calls_empty_window", "calls", a, 3, 3, -1.5),
        C("calls_out_of_bounds", "calls", a, 2, 6, 1.0),
    ]


@program("determinants")
def _determinants():
    rot = np.array([[0.36, 0.48, -0.8], [-0.8, 0.6, 0.0], [0.48, 0.64, 0.6]])
    return [
        C("det_2", "det", arr([[4.0, 3.0], [6.0, 3.0]], np.float64), tol="ulps=4"),
        C("det_3", "det", arr([[2.0, -1.0, 0.5], [1.5, 3.0, -2.0], [0.25, 4.0, 1.0]], np.float64), tol="ulps=8"),
        C("det_pivoting", "det", arr([[0.0, 2.0, 1.0], [3.0, 0.0, -1.0], [1.0, 1.0, 0.0]], np.float64), tol="ulps=8"),
        C("det_negative", "det", arr([[0.0, 1.0], [1.0, 0.0]], np.float64), tol="ulps=2"),
        C("det_singular", "det", arr([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], np.float64)),
        C("det_zero_column", "det", arr([[0.0, 1.0], [0.0, 5.0]], np.float64)),
        C("det_empty", "det", np.zeros((0, 0))),
        C("det_one", "det", arr([[-2.5]], np.float64), tol="ulps=2"),
        C("det_transposed", "det", transposed(arr([[1.0, 2.0, 0.0], [0.5, -1.0, 3.0], [2.0, 0.0, 1.0]], np.float64)), tol="ulps=8"),
        C("det_strided", "det", every_other(arr([[1.0, 2.0], [3.0, 4.5]], np.float64)), tol="ulps=4"),
        C("det_nan", "det", arr([[1.0, math.nan], [2.0, 3.0]], np.float64)),
        C("det_not_square", "det", np.ones((2, 3))),
        C("det_of_ints", "det_of_ints", arr([[3, 1, 4], [1, 5, 9], [2, 6, 5]], np.int64), tol="ulps=16"),
        C("det_single", "det_single", arr([[1.5, 2.0], [-3.0, 0.25]], np.float32), tol="ulps=4"),
        C("det_of_bools", "det_of_bools", arr([[True, False], [True, True]], np.bool_)),
        C("is_rotation", "is_rotation", rot.ravel(), 1e-3),
        C("is_rotation_scaled", "is_rotation", 1.1 * rot.ravel(), 1e-3),
    ]


@program("eigen")
def _eigen():
    def symmetric(n):
        """A random symmetric Float64 matrix (three decimals)."""
        a = f64(n, n)
        return np.tril(a) + np.tril(a, -1).T

    def rot_of(q):
        """The rotation of the unit quaternion `q` (scalar part first)."""
        q0, q1, q2, q3 = q
        return np.array([
            [q0 * q0 + q1 * q1 - q2 * q2 - q3 * q3, 2 * (q1 * q2 - q0 * q3), 2 * (q1 * q3 + q0 * q2)],
            [2 * (q1 * q2 + q0 * q3), q0 * q0 + q2 * q2 - q1 * q1 - q3 * q3, 2 * (q2 * q3 - q0 * q1)],
            [2 * (q1 * q3 - q0 * q2), 2 * (q2 * q3 + q0 * q1), q0 * q0 + q3 * q3 - q1 * q1 - q2 * q2],
        ])

    diag = arr([[3.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 2.0]], np.float64)
    two = arr([[4.0, 1.5], [1.5, -2.0]], np.float64)
    three = symmetric(3)
    four = symmetric(4)
    # Shifted away from 0: an eigenvalue is accurate to rounding of the
    # matrix's norm, not of its own magnitude, as LAPACK's is.
    eight = symmetric(8) + 30.0 * np.eye(8)
    repeated = arr([[2.0, 1.0, 1.0], [1.0, 2.0, 1.0], [1.0, 1.0, 2.0]], np.float64)
    # Only the lower triangle is read: the upper one holds other numbers
    # and a NaN; and the other way round for UPLO='U'.
    lower_only = three.copy()
    lower_only[0, 1], lower_only[0, 2], lower_only[1, 2] = 99.0, math.nan, -7.0
    upper_only = three.copy()
    upper_only[1, 0], upper_only[2, 0], upper_only[2, 1] = 99.0, math.nan, -7.0
    # A non-symmetric matrix read through views: its lower triangle.
    skew = f64(4, 4)
    singular = np.outer([1.0, -2.0, 0.5, 3.0], [1.0, -2.0, 0.5, 3.0])
    single = symmetric(3).astype(np.float32)
    int_sym = ints(np.int64, -9, 9, 4, 4)
    int_sym = np.tril(int_sym) + np.tril(int_sym, -1).T
    # Horn's fit: points, and the same points rotated and moved.
    q = np.array([0.9, 0.2, -0.3, 0.25])
    q /= np.linalg.norm(q)
    points = f64(6, 3)
    moved = points @ rot_of(q).T + np.array([0.5, -1.25, 2.0]) + 1e-3 * f64(6, 3, scale=1.0)
    return [
        C("values_diagonal", "eigenvalues", diag),
        C("values_two", "eigenvalues", two, tol="rel=1e-14"),
        C("values_three", "eigenvalues", three, tol="rel=1e-13"),
        C("values_four", "eigenvalues", four, tol="rel=1e-13"),
        C("values_eight", "eigenvalues", eight, tol="rel=1e-12"),
        C("values_repeated", "eigenvalues", repeated, tol="rel=1e-14"),
        C("values_lower_only", "eigenvalues", lower_only, tol="rel=1e-13"),
        C("values_one", "eigenvalues", arr([[-2.5]], np.float64)),
        C("values_empty", "eigenvalues", np.zeros((0, 0))),
        C("values_transposed", "eigenvalues", transposed(skew), tol="rel=1e-13"),
        C("values_strided", "eigenvalues", every_other(skew), tol="rel=1e-13"),
        C("values_reversed", "eigenvalues", reversed_view(skew), tol="rel=1e-13"),
        C("values_nan", "eigenvalues", arr([[1.0, 0.0], [math.nan, 2.0]], np.float64)),
        C("values_not_square", "eigenvalues", np.ones((2, 3))),
        C("only_values_four", "eigenvalues_only", four, tol="rel=1e-13"),
        C("only_values_empty", "eigenvalues_only", np.zeros((0, 0))),
        C("only_values_not_square", "eigenvalues_only", np.ones((3, 2))),
        C("upper_values", "eigenvalues_upper", upper_only, tol="rel=1e-13"),
        C("vectors_diagonal", "vectors", diag),
        C("vectors_two", "vectors", two, tol="rel=1e-14"),
        C("vectors_three", "vectors", three, tol="rel=1e-13"),
        C("vectors_four", "vectors", four, tol="rel=1e-13"),
        C("vectors_eight", "vectors", eight, tol="rel=1e-12"),
        C("vectors_lower_only", "vectors", lower_only, tol="rel=1e-13"),
        C("vectors_one", "vectors", arr([[-2.5]], np.float64)),
        C("vectors_empty", "vectors", np.zeros((0, 0))),
        C("vectors_transposed", "vectors", transposed(skew), tol="rel=1e-13"),
        C("vectors_strided", "vectors", every_other(skew), tol="rel=1e-13"),
        C("vectors_upper", "vectors_upper", upper_only, tol="rel=1e-13"),
        C("decomposes_four", "decomposes", four, 1e-14),
        C("decomposes_eight", "decomposes", eight, 1e-14),
        C("decomposes_repeated", "decomposes", repeated, 1e-14),
        C("decomposes_singular", "decomposes", singular, 1e-14),
        C("decomposes_lower_only", "decomposes", lower_only, 1e-14),
        C("decomposes_transposed", "decomposes", transposed(skew), 1e-14),
        C("decomposes_empty", "decomposes", np.zeros((0, 0)), 1e-14),
        C("decomposes_identity", "decomposes", np.eye(5), 0.0),
        C("decomposition_diagonal", "decomposition", diag),
        C("decomposition_diagonal_transposed", "decomposition", transposed(diag)),
        C("largest_three", "largest", three, tol="rel=1e-13"),
        C("largest_empty", "largest", np.zeros((0, 0))),
        C("smallest_vector_four", "smallest_vector", four, tol="rel=1e-13"),
        C("values_single", "eigenvalues_single", single, tol="rel=1e-5"),
        C("values_single_not_square", "eigenvalues_single", np.ones((1, 2), np.float32)),
        C("vectors_single", "vectors_single", single, tol="rel=1e-6"),
        C("values_of_ints", "eigenvalues_of_ints", int_sym, tol="rel=1e-13"),
        C("vectors_of_ints", "vectors_of_ints", int_sym, tol="rel=1e-13"),
        C("values_of_bools", "eigenvalues_of_bools", arr([[True, True], [True, False]], np.bool_), tol="rel=1e-15"),
        C("fit_matched_points", "fit_matched_points", points, moved, tol="rel=1e-10"),
    ]


@program("dot_matmul")
def _dot_matmul():
    def exact(*shape):
        """Small integers as Float64: every product and sum is exact, so
        any summation order gives NumPy's result."""
        return ints(np.float64, -9, 9, *shape)

    def cplx(dtype, *shape):
        return (ints(np.int64, -9, 9, *shape) + 1j * ints(np.int64, -9, 9, *shape)).astype(dtype)

    return [
        C("inner", "inner", exact(5), exact(5)),
        C("inner_strided", "inner", every_other(exact(4)), reversed_view(exact(4))),
        C("inner_rounded", "inner", f64(7), f64(7), tol="rel=1e-12"),
        C("inner_empty", "inner", zeros(0, np.float64), zeros(0, np.float64)),
        C("inner_mismatch", "inner", exact(3), exact(4)),
        C("inner_method", "inner_method", ints(np.int64, -99, 99, 6), ints(np.int64, -99, 99, 6)),
        C("inner_method_mismatch", "inner_method", ints(np.int64, -9, 9, 2), ints(np.int64, -9, 9, 0)),
        C("inner_at", "inner_at", ints(np.int32, -99, 99, 5), every_other(ints(np.int32, -99, 99, 5))),
        C("inner_at_mismatch", "inner_at", ints(np.int32, -9, 9, 3), ints(np.int32, -9, 9, 4)),
        C("inner_mixed", "inner_mixed", ints(np.int8, -128, 127, 4), ints(np.uint8, 0, 255, 4)),
        C("inner_half", "inner_half", arr([2048, 1, 1, -0.5], np.float16), arr([1, 1, 1, 2], np.float16)),
        C("any_both", "any_both", arr([True, False, True], np.bool_), arr([False, False, True], np.bool_)),
        C("any_both_none", "any_both", arr([True, False, True], np.bool_), arr([False, True, False], np.bool_)),
        C("any_both_empty", "any_both", zeros(0, np.bool_), zeros(0, np.bool_)),
        C("inner_complex", "inner_complex", cplx(np.complex128, 4), cplx(np.complex128, 4)),
        C("matvec", "matvec", exact(3, 4), exact(4)),
        C("matvec_fortran", "matvec", fortran(exact(4, 3)), every_other(exact(3))),
        C("matvec_transposed", "matvec", transposed(exact(2, 5)), reversed_view(exact(5))),
        C("matvec_strided", "matvec", every_other(exact(3, 2)), exact(2)),
        C("matvec_no_rows", "matvec", np.zeros((0, 3)), exact(3)),
        C("matvec_no_columns", "matvec", np.zeros((2, 0)), zeros(0, np.float64)),
        C("matvec_mismatch", "matvec", exact(2, 3), exact(4)),
        C("vecmat", "vecmat", ints(np.float32, -9, 9, 3), ints(np.float32, -9, 9, 3, 4)),
        C("vecmat_fortran", "vecmat", ints(np.float32, -9, 9, 2), fortran(ints(np.float32, -9, 9, 2, 5))),
        C("vecmat_mismatch", "vecmat", ints(np.float32, -9, 9, 3), ints(np.float32, -9, 9, 4, 2)),
        C("matmat", "matmat", exact(2, 3), exact(3, 4)),
        C("matmat_fortran", "matmat", fortran(exact(3, 3)), transposed(exact(3, 2))),
        C("matmat_strided", "matmat", every_other(exact(2, 2)), fortran(exact(2, 3))),
        C("matmat_rounded", "matmat", f64(3, 4), f64(4, 2), tol="rel=1e-12"),
        C("matmat_empty_inner", "matmat", np.zeros((2, 0)), np.zeros((0, 3))),
        C("matmat_empty_outer", "matmat", np.zeros((0, 3)), exact(3, 0)),
        C("matmat_mismatch", "matmat", exact(2, 3), exact(4, 5)),
        C("matmat_method", "matmat_method", ints(np.int64, -99, 99, 3, 2), transposed(ints(np.int64, -99, 99, 2, 3))),
        C("matmat_method_mismatch", "matmat_method", ints(np.int64, -9, 9, 2, 3), ints(np.int64, -9, 9, 4, 5)),
        C("matmat_complex", "matmat_complex", cplx(np.complex64, 2, 3), fortran(cplx(np.complex64, 3, 2))),
        C("gram", "gram", exact(4, 3)),
        C("gram_fortran", "gram", fortran(exact(2, 3))),
        C("gram_no_rows", "gram", np.zeros((0, 2))),
        C("residual", "residual", exact(3, 2), exact(2), exact(3)),
        C("residual_mismatch", "residual", exact(3, 2), exact(3), exact(3)),
        C("quadratic", "quadratic", exact(3, 3), exact(3)),
        C("quadratic_transposed", "quadratic", transposed(exact(4, 4)), every_other(exact(4))),
        C("chained", "chained", exact(2, 3), exact(3, 4), exact(4)),
        C("chained_mismatch", "chained", exact(2, 3), exact(3, 4), exact(3)),
    ]


@program("numpy_arrays")
def _numpy_arrays():
    nan = math.nan
    return [
        C("squares", "squares", 5),
        C("squares_empty", "squares", 0),
        C("squares_negative", "squares", -2),
        C("table", "table", 3, 4),
        C("table_no_rows", "table", 0, 4),
        C("cube_sum", "cube_sum", 3),
        C("filled", "filled", 4, f32v(1.25)),
        C("full_int", "full_int", 3),
        C("like", "like", f64(2, 3)),
        C("like_fortran", "like", fortran(f64(3, 2))),
        C("like_dtype", "like_dtype", arr([1.0, -2.0, 0.0, 3.5], np.float64)),
        C("ranges", "ranges", 10),
        C("ranges_short", "ranges", 1),
        C("float_range", "float_range", 0.0, 1.0, 0.25),
        C("float_range_neg", "float_range", 2.0, -1.0, -0.7),
        C("float_range_none", "float_range", 1.0, 0.0, 0.5),
        C("range_f32", "range_f32", 5),
        C("rebound_big", "rebound", 3, True),
        C("rebound_small", "rebound", 2, False),
        C("alias_then_rebind", "alias_then_rebind", 3, True),
        C("alias_then_rebind_other", "alias_then_rebind", 1, False),
        C("fill_rows", "fill_rows", 2, 3),
        C("sum_i32", "sum_i32", ints(np.int32, -2**31, 2**31 - 1, 9)),
        C("sum_i32_empty", "sum_i32", arr([], np.int32)),
        C("sum_bool", "sum_bool", arr([True, False, True, True], np.bool_)),
        C("sum_u8", "sum_u8", ints(np.uint8, 0, 255, 3, 4)),
        C("sum_u8_transposed", "sum_u8", transposed(ints(np.uint8, 0, 255, 3, 4))),
        C("sum_f32", "sum_f32", arr([0.5, 1.25, -2.0, 3.0], np.float32)),
        C("sum_f64_2d", "sum_f64_2d", f64(4, 5), tol="rel=1e-13"),
        C("sum_f64_2d_strided", "sum_f64_2d", transposed(f64(3, 6)), tol="rel=1e-13"),
        C("prod_i64", "prod_i64", arr([3, -2, 5, 7], np.int64)),
        C("prod_i64_empty", "prod_i64", arr([], np.int64)),
        C("mean_i32", "mean_i32", arr([1, 2, 4, 7], np.int32)),
        C("mean_f64", "mean_f64", f64(3, 3), tol="rel=1e-13"),
        C("mean_f32", "mean_f32", arr([1.0, 2.0, 4.5], np.float32)),
        C("min_f64", "min_f64", f64(7)),
        C("min_f64_nan", "min_f64", arr([3.0, nan, -1.0], np.float64)),
        C("min_f64_empty", "min_f64", arr([], np.float64)),
        C("max_f64", "max_f64", f64(3, 4)),
        C("max_f64_nan_last", "max_f64", arr([[1.0, 2.0], [5.0, nan]], np.float64)),
        C("min_i8", "min_i8", arr([4, -7, 3, -7], np.int8)),
        C("max_bool", "max_bool", arr([False, True, False], np.bool_)),
        C("max_bool_none", "max_bool", arr([False, False], np.bool_)),
        C("argmin_f64", "argmin_f64", arr([2.0, -1.0, 5.0, -1.0], np.float64)),
        C("argmin_f64_nan", "argmin_f64", arr([2.0, -1.0, nan, -3.0, nan], np.float64)),
        C("argmin_f64_empty", "argmin_f64", arr([], np.float64)),
        C("argmax_2d", "argmax_2d", f64(3, 4)),
        C("argmax_2d_fortran", "argmax_2d", fortran(f64(3, 4))),
        C("argmax_i32", "argmax_i32", arr([1, 9, 9, 2], np.int32)),
        C("any_all_mixed", "any_all", arr([0.0, 1.5, 0.0], np.float64)),
        C("any_all_all", "any_all", arr([nan, -1.0], np.float64)),
        C("any_all_none", "any_all", arr([0.0, -0.0], np.float64)),
        C("any_all_empty", "any_all", arr([], np.float64)),
        C("any_bool_2d", "any_bool_2d", arr([[False, False], [False, True]], np.bool_)),
        C("sum_complex", "sum_complex", arr([1 + 2j, -0.5 + 0.25j, 3 - 1j], np.complex128)),
        C("half_mean", "half_mean", 10),
        C("size_ndim", "size_ndim", f64(3, 5)),
        C("by_keyword", "by_keyword", 3, f32v(0.25)),
        C("by_keyword_empty", "by_keyword", 0, f32v(1.5)),
        C("by_keyword_negative", "by_keyword", -1, f32v(1.5)),
    ]


@program("pairwise_sums")
def _pairwise_sums():
    def full(*shape):
        """Float64 values with every bit of the mantissa in use, so that
        sums in another order differ."""
        return rng.uniform(-1e3, 1e3, size=shape)

    cases = []
    for n in [0, 1, 3, 5, 7, 8, 9, 10, 12, 14, 15, 16, 17, 100, 127, 128, 129, 200, 1000]:
        cases.append(C(f"total_{n}", "total", full(n)))
    cases += [
        C("total_reversed", "total", reversed_view(full(300))),
        C("total_every_other", "total", every_other(full(257))),
        C("total_every_other_11", "total", every_other(full(22))),
        C("total_f32_13", "total_f32", full(13).astype(np.float32)),
        C("total_f16_14", "total_f16", rng.uniform(-4, 4, size=14).astype(np.float16)),
        C("total_f32_130", "total_f32", full(130).astype(np.float32)),
        C("total_f32_reversed", "total_f32", reversed_view(full(77).astype(np.float32))),
        C("total_f16_300", "total_f16", rng.uniform(-4, 4, size=300).astype(np.float16)),
        C("total_f16_9", "total_f16", rng.uniform(-4, 4, size=9).astype(np.float16)),
        C("average_500", "average", full(500)),
        C("average_f32_64", "average_f32", full(64).astype(np.float32)),
        C("total_2d_c", "total_2d", full(13, 29)),
        C("total_2d_fortran", "total_2d", fortran(full(21, 11))),
        C("total_2d_transposed", "total_2d", transposed(full(9, 40))),
        C("total_2d_one_row", "total_2d", full(1, 150)),
        C("row_totals_c", "row_totals", full(5, 140)),
        C("row_totals_strided", "row_totals", every_other(full(3, 31))),
        C("row_totals_fortran", "row_totals", fortran(full(6, 20))),
        C("col_totals_c", "col_totals", full(40, 3).astype(np.float32)),
        C("col_totals_fortran", "col_totals", fortran(full(150, 2).astype(np.float32))),
        C("rows_one_by_one", "rows_one_by_one", full(20, 10)),
        C("rows_one_by_one_long", "rows_one_by_one", full(3, 300)),
        C("rows_bound", "rows_bound", full(6, 9)),
        C("rows_bound_transposed", "rows_bound", transposed(full(4, 140))),
    ]
    return cases


@program("reductions_axis")
def _reductions_axis():
    nan = math.nan
    t = "rel=1e-13"
    return [
        C("col_sums", "col_sums", f64(4, 5), tol=t),
        C("col_sums_fortran", "col_sums", fortran(f64(3, 4)), tol=t),
        C("col_sums_transposed", "col_sums", transposed(f64(5, 2)), tol=t),
        C("col_sums_strided", "col_sums", every_other(f64(3, 3)), tol=t),
        C("col_sums_no_rows", "col_sums", np.zeros((0, 3))),
        C("col_sums_no_columns", "col_sums", np.zeros((3, 0))),
        C("row_sums", "row_sums", f64(3, 9), tol=t),
        C("row_sums_transposed", "row_sums", transposed(f64(4, 3)), tol=t),
        C("row_sums_no_columns", "row_sums", np.zeros((2, 0))),
        C("row_sums_i32", "row_sums_i32", ints(np.int32, -2**31, 2**31 - 1, 3, 5)),
        C("row_sums_i32_fortran", "row_sums_i32", fortran(ints(np.int32, -2**31, 2**31 - 1, 4, 3))),
        C("col_prods", "col_prods", ints(np.int64, -9, 9, 4, 3)),
        C("col_prods_no_rows", "col_prods", np.zeros((0, 2), np.int64)),
        C("col_mins", "col_mins", f64(4, 3)),
        C("col_mins_nan", "col_mins", arr([[1.0, nan, 3.0], [nan, 2.0, -1.0], [0.5, 7.0, nan]], np.float64)),
        C("col_mins_strided", "col_mins", every_other(f64(3, 2))),
        C("col_mins_no_rows", "col_mins", np.zeros((0, 3))),
        C("col_mins_no_columns", "col_mins", np.zeros((3, 0))),
        C("col_mins_nothing", "col_mins", np.zeros((0, 0))),
        C("row_maxs", "row_maxs", ints(np.int16, -999, 999, 3, 4)),
        C("row_maxs_transposed", "row_maxs", transposed(ints(np.int16, -999, 999, 2, 5))),
        C("row_maxs_no_columns", "row_maxs", np.zeros((2, 0), np.int16)),
        C("col_argmins", "col_argmins", arr([[2.0, -1.0, 5.0], [2.0, -3.0, 5.0], [1.0, -3.0, 6.0]], np.float64)),
        C("col_argmins_nan", "col_argmins", arr([[2.0, nan], [nan, 1.0], [-1.0, nan]], np.float64)),
        C("col_argmins_fortran", "col_argmins", fortran(f64(4, 3))),
        C("col_argmins_no_columns", "col_argmins", np.zeros((3, 0))),
        C("col_argmins_no_rows", "col_argmins", np.zeros((0, 3))),
        C("row_argmaxs", "row_argmaxs", ints(np.int32, -5, 5, 4, 6)),
        C("row_argmaxs_strided", "row_argmaxs", every_other(ints(np.int32, -5, 5, 3, 4))),
        C("col_means", "col_means", ints(np.int32, -1000, 1000, 5, 3), tol=t),
        C("col_means_transposed", "col_means", transposed(ints(np.int32, -1000, 1000, 2, 4)), tol=t),
        C("row_means_f32", "row_means_f32", arr([[1.0, 2.0, 4.5], [-0.25, 0.5, 8.0]], np.float32)),
        C("rows_any", "rows_any", arr([[0.0, 0.0], [0.0, -2.0], [nan, 0.0], [-0.0, 0.0]], np.float64)),
        C("rows_any_no_columns", "rows_any", np.zeros((3, 0))),
        C("cols_all", "cols_all", fortran(arr([[1.0, 0.0, nan], [2.0, 3.0, -1.0]], np.float64))),
        C("cols_all_no_rows", "cols_all", np.zeros((0, 2))),
        C("middle_sums", "middle_sums", ints(np.int64, -99, 99, 2, 3, 4)),
        C("middle_sums_fortran", "middle_sums", fortran(ints(np.int64, -99, 99, 3, 2, 2))),
        C("middle_sums_empty_middle", "middle_sums", np.zeros((2, 0, 3), np.int64)),
        C("last_maxs", "last_maxs", f64(2, 3, 4)),
        C("last_maxs_transposed", "last_maxs", np.ascontiguousarray(f64(4, 3, 2).transpose(2, 1, 0)).transpose(2, 1, 0)),
        C("last_maxs_empty_last", "last_maxs", np.zeros((2, 2, 0))),
        C("first_argmins", "first_argmins", ints(np.int64, -3, 3, 4, 2, 3)),
        C("first_argmins_empty_first", "first_argmins", np.zeros((0, 2, 2), np.int64)),
        C("whole", "whole", f64(3, 4), tol=t),
        C("col_averages", "col_averages", f64(4, 3), tol=t),
        C("widest_row", "widest_row", ints(np.int64, -50, 50, 5, 4)),
        C("widest_row_transposed", "widest_row", transposed(ints(np.int64, -50, 50, 3, 6))),
        C("running", "running", ints(np.int32, -2**31, 2**31 - 1, 7)),
        C("running_reversed", "running", reversed_view(ints(np.int32, -99, 99, 5))),
        C("running_empty", "running", zeros(0, np.int32)),
        C("running_flat", "running_flat", f64(3, 4), tol=t),
        C("running_flat_fortran", "running_flat", fortran(f64(2, 3)), tol=t),
        C("running_flat_transposed", "running_flat", transposed(f64(3, 2)), tol=t),
        C("running_flat_empty", "running_flat", np.zeros((0, 4))),
        C("running_count", "running_count", arr([True, False, True, True, False], np.bool_)),
        C("running_bytes", "running_bytes", ints(np.uint8, 0, 255, 3, 3)),
        C("running_down", "running_down", ints(np.int64, -99, 99, 4, 3)),
        C("running_down_fortran", "running_down", fortran(ints(np.int64, -99, 99, 3, 4))),
        C("running_down_strided", "running_down", every_other(ints(np.int64, -99, 99, 3, 2))),
        C("running_down_no_rows", "running_down", np.zeros((0, 3), np.int64)),
        C("running_across", "running_across", f64(3, 4), tol=t),
        C("running_across_transposed", "running_across", transposed(f64(2, 5)), tol=t),
        C("running_across_no_columns", "running_across", np.zeros((4, 0))),
        C("running_one_axis", "running_one_axis", ints(np.int64, -99, 99, 6)),
    ]


@program("stencil")
def _stencil():
    return [
        C("heat_step", "heat_step", fortran(f32(5, 4)), np.zeros((5, 4), np.float32, order="F")),
        C("heat_step_c_input", "heat_step", f32(4, 4), np.zeros((4, 4), np.float32, order="F")),
        C("heat_step_1x1", "heat_step", fortran(f32(1, 1)), np.zeros((1, 1), np.float32, order="F")),
        C("smooth_periodic", "smooth_periodic", f64(6), zeros(6, np.float64)),
        C("smooth_periodic_two", "smooth_periodic", arr([1.0, 3.0], np.float64), zeros(2, np.float64)),
        C("smooth_periodic_one", "smooth_periodic", arr([2.0], np.float64), zeros(1, np.float64)),
        C("smooth_periodic_strided", "smooth_periodic", every_other(f64(5)), reversed_view(zeros(5, np.float64))),
        C("laplace4", "laplace4", f64(4, 4), zeros((4, 4), np.float64)),
        C("laplace4_quadratic", "laplace4", np.fromfunction(lambda i, j: i * i + j * j, (4, 4)), zeros((4, 4), np.float64)),
        C("max_abs_diff", "max_abs_diff", f32(3, 4), f32(3, 4)),
        C("max_abs_diff_transposed", "max_abs_diff", transposed(f32(2, 3)), f32(2, 3)),
    ]


@program("prefix_sum")
def _prefix_sum():
    return [
        C("inclusive_scan", "inclusive_scan", ints(np.int64, -1000, 1000, 10)),
        C("inclusive_scan_strided", "inclusive_scan", every_other(ints(np.int64, 0, 9, 5))),
        C("inclusive_scan_empty", "inclusive_scan", zeros(0, np.int64)),
        C("exclusive_scan", "exclusive_scan", ints(np.int32, -50, 50, 7), zeros(7, np.int32)),
        C("exclusive_scan_reversed", "exclusive_scan", reversed_view(arr([1, 2, 3, 4], np.int32)), zeros(4, np.int32)),
        C("suffix_sum", "suffix_sum", f64(6), zeros(6, np.float64)),
        C("suffix_sum_empty", "suffix_sum", zeros(0, np.float64), zeros(0, np.float64)),
        C("running_max", "running_max", ints(np.int16, -30000, 30000, 8), zeros(8, np.int16)),
        C("every_other_sum_0", "every_other_sum", arr([1, 2, 3, 4, 5, 65535], np.uint16), 0),
        C("every_other_sum_1", "every_other_sum", arr([1, 2, 3, 4, 5, 65535], np.uint16), 1),
        C("every_other_sum_past_end", "every_other_sum", arr([1, 2, 3], np.uint16), 5),
        C("backwards_stride_sum_1", "backwards_stride_sum", arr([1, 10, 100, 1000, 10000], np.int64), 1),
        C("backwards_stride_sum_2", "backwards_stride_sum", arr([1, 10, 100, 1000, 10000], np.int64), 2),
        C("backwards_stride_sum_9", "backwards_stride_sum", arr([1, 10, 100, 1000, 10000], np.int64), 9),
        C("backwards_stride_sum_neg", "backwards_stride_sum", arr([1, 10, 100, 1000, 10000], np.int64), -1),
        C("backwards_stride_sum_zero", "backwards_stride_sum", arr([1, 10, 100], np.int64), 0),
        C("difference", "difference", f64(6)),
        C("difference_strided", "difference", every_other(arr([1.0, 4.0, 9.0, 16.0], np.float64))),
    ]


@program("sorting")
def _sorting():
    s = np.sort(f64(10))
    return [
        C("insertion_sort", "insertion_sort", f64(9)),
        C("insertion_sort_strided", "insertion_sort", every_other(f64(5))),
        C("insertion_sort_sorted", "insertion_sort", np.sort(f64(4))),
        C("insertion_sort_empty", "insertion_sort", zeros(0, np.float64)),
        C("bubble_sort", "bubble_sort", ints(np.int32, -100, 100, 8)),
        C("bubble_sort_sorted", "bubble_sort", arr([1, 2, 3], np.int32)),
        C("bubble_sort_reversed_view", "bubble_sort", reversed_view(arr([1, 2, 3, 4, 5], np.int32))),
        C("binary_search_mid", "binary_search", s, float(s[4])),
        C("binary_search_between", "binary_search", s, float((s[6] + s[7]) / 2)),
        C("binary_search_low", "binary_search", s, -100.0),
        C("binary_search_high", "binary_search", s, 100.0),
        C("binary_search_empty", "binary_search", zeros(0, np.float64), 1.0),
        C("is_sorted_yes", "is_sorted", arr([-5, 0, 0, 7], np.int32)),
        C("is_sorted_no", "is_sorted", arr([1, 3, 2], np.int32)),
        C("is_sorted_empty", "is_sorted", zeros(0, np.int32)),
        C("inversions", "inversions", ints(np.int32, 0, 20, 10)),
        C("inversions_reversed", "inversions", arr([5, 4, 3, 2, 1], np.int32)),
    ]


@program("primes")
def _primes():
    return [
        C("sieve_30", "sieve", zeros(30, np.bool_)),
        C("sieve_2", "sieve", zeros(2, np.bool_)),
        C("sieve_strided", "sieve", every_other(zeros(12, np.bool_))),
        C("is_prime_1", "is_prime", 1),
        C("is_prime_2", "is_prime", 2),
        C("is_prime_91", "is_prime", 91),
        C("is_prime_97", "is_prime", 97),
        C("is_prime_large", "is_prime", 1000000007),
        C("is_prime_neg", "is_prime", -7),
        C("nth_prime_1", "nth_prime", 1),
        C("nth_prime_2", "nth_prime", 2),
        C("nth_prime_100", "nth_prime", 100),
        C("prime_count_100", "prime_count", 100),
        C("prime_count_1000", "prime_count", 1000),
        C("prime_count_2", "prime_count", 2),
        C("largest_prime_factor_13195", "largest_prime_factor", 13195),
        C("largest_prime_factor_97", "largest_prime_factor", 97),
        C("largest_prime_factor_1024", "largest_prime_factor", 1024),
    ]


@program("polynomial")
def _polynomial():
    c = arr([1.5, -2.0, 0.25, 3.0], np.float64)
    return [
        C("horner_broadcast", "horner", f64(5, scale=2.0), c),
        C("horner_stack", "horner", f64(2, 1, scale=2.0), f64(3, 4)),
        C("horner_scalar_x", "horner", 2.0, f64(2, 3)),
        C("horner_empty_coeffs", "horner", f64(3), zeros(0, np.float64)),
        C("horner32", "horner32", f32v(1.5), f32(5)),
        C("horner32_strided", "horner32", f32v(-0.75), every_other(f32(4))),
        C("horner32_empty", "horner32", f32v(2.0), zeros(0, np.float32)),
        C("derivative", "derivative", c, zeros(3, np.float64)),
        C("derivative_strided_out", "derivative", f64(5), every_other(zeros(4, np.float64))),
        C("from_roots_123", "from_roots", arr([1.0, 2.0, 3.0], np.float64), zeros(4, np.float64)),
        C("from_roots", "from_roots", f64(4), zeros(5, np.float64)),
        C("from_roots_none", "from_roots", zeros(0, np.float64), zeros(1, np.float64)),
        C("int_poly", "int_poly", 3, arr([1, 0, -2, 5], np.int64)),
        C("int_poly_neg", "int_poly", -10, arr([7, 1, 1, 1, 1, 1], np.int64)),
    ]


@program("geometry")
def _geometry():
    sq_x = arr([0.0, 1.0, 1.0, 0.0], np.float64)
    sq_y = arr([0.0, 0.0, 1.0, 1.0], np.float64)
    tri_x = arr([0.0, 4.0, 0.0], np.float64)
    tri_y = arr([0.0, 0.0, 3.0], np.float64)
    return [
        C("circle_area_1", "circle_area", 1.0),
        C("circle_area_2_5", "circle_area", 2.5),
        C("area_alias", "area", 0.5),
        C("ring_area", "ring_area", 3.0, 2.0),
        C("shoelace_square", "shoelace", sq_x, sq_y),
        C("shoelace_triangle", "shoelace", tri_x, tri_y),
        C("shoelace_clockwise", "shoelace", reversed_view(tri_x), reversed_view(tri_y)),
        C("shoelace_random", "shoelace", f64(6), f64(6)),
        C("perimeter_triangle", "perimeter", tri_x, tri_y, tol="ulps=4"),
        C("perimeter_square", "perimeter", sq_x, sq_y, tol="ulps=4"),
        C("inside_yes", "inside", sq_x, sq_y, 0.5, 0.5),
        C("inside_no", "inside", sq_x, sq_y, 1.5, 0.5),
        C("inside_triangle", "inside", tri_x, tri_y, 1.0, 1.0),
        C("inside_triangle_no", "inside", tri_x, tri_y, 3.0, 2.0),
        C("in_box_yes", "in_box", 0.5, 0.5, 0.0, 1.0, 0.0, 1.0),
        C("in_box_edge_low", "in_box", 0.0, 0.0, 0.0, 1.0, 0.0, 1.0),
        C("in_box_edge_high", "in_box", 1.0, 0.5, 0.0, 1.0, 0.0, 1.0),
        C("in_box_nan", "in_box", math.nan, 0.5, 0.0, 1.0, 0.0, 1.0),
        C("clamp_low", "clamp", -5, 0, 10),
        C("clamp_mid", "clamp", 5, 0, 10),
        C("clamp_high", "clamp", 50, 0, 10),
    ]


@program("geom.vec")
def _geom_vec():
    a = arr([1.0, 2.0, 3.0], np.float64)
    b = arr([-2.0, 0.5, 4.0], np.float64)
    return [
        C("dot3", "dot3", a, b),
        C("dot3_random", "dot3", f64(3), f64(3)),
        C("cross3", "cross3", a, b, zeros(3, np.float64)),
        C("cross3_axes", "cross3", arr([1.0, 0.0, 0.0], np.float64), arr([0.0, 1.0, 0.0], np.float64), zeros(3, np.float64)),
        C("norm3", "norm3", arr([2.0, 3.0, 6.0], np.float64)),
        C("norm3_random", "norm3", f64(3)),
        C("scale3", "scale3", -1.5, a, zeros(3, np.float64)),
        C("get3", "get3", b, 2),
        C("get3_neg", "get3", b, -3),
        C("get3_oob", "get3", b, 3),
    ]


@program("uses_geom")
def _uses_geom():
    p = arr([0.0, 0.0, 0.0], np.float64)
    q = arr([3.0, 0.0, 0.0], np.float64)
    r = arr([0.0, 4.0, 0.0], np.float64)
    return [
        C("triangle_area_right", "triangle_area", p, q, r),
        C("triangle_area_random", "triangle_area", f64(3), f64(3), f64(3)),
        C("triangle_area_degenerate", "triangle_area", p, q, arr([6.0, 0.0, 0.0], np.float64)),
        C("normal", "normal", p, q, r, zeros(3, np.float64)),
        C("normal_random", "normal", f64(3), f64(3), f64(3), zeros(3, np.float64)),
        C("angle_right", "angle", q, r, tol="ulps=4"),
        C("angle_random", "angle", f64(3), f64(3), tol="ulps=4"),
        C("is_orthogonal_yes", "is_orthogonal", q, r),
        C("is_orthogonal_no", "is_orthogonal", q, arr([1.0, 1.0, 0.0], np.float64)),
        C("component_1", "component", arr([7.0, 8.0, 9.0], np.float64), 1),
        C("component_-1", "component", arr([7.0, 8.0, 9.0], np.float64), -1),
        C("component_oob", "component", arr([7.0, 8.0, 9.0], np.float64), -4),
    ]


@program("kwlib.blend")
def _kwlib_blend():
    return [
        C("lerp_mid", "lerp", 1.0, 3.0, 0.5),
        C("lerp_quarter", "lerp", -2.0, 6.0, 0.25),
        C("ramp_inside", "ramp", 0.3, -1.0, 1.0, 4),
        C("ramp_below", "ramp", -5.0, -1.0, 1.0, 4),
        C("ramp_top", "ramp", 1.0, 0.0, 2.0, 3),
    ]


@program("keywords")
def _keywords():
    cases = [C("angles", "angles", -1.25), C("angles_0", "angles", 0.0)]
    for x in (0.0, 1.5, -2.25):
        cases += [
            C(f"poly_{x}", "poly", x, 1.0, -2.0, 3),
            C(f"poly_default_{x}", "poly_default", x),
            C(f"poly_reordered_{x}", "poly_reordered", x),
            C(f"poly_all_keywords_{x}", "poly_all_keywords", x),
            C(f"poly_mixed_{x}", "poly_mixed", x, 0.75),
        ]
    for n in (-20, -4, 0, 2, 7, 15):
        cases.append(C(f"clip_calls_{n}", "clip_calls", n))
    cases += [
        C("scaled_twice", "scaled_twice", np.float32(3.25)),
        C("scaled_twice_small", "scaled_twice", np.float32(-0.1)),
        C("rotate_twice", "rotate_twice", 1.5 - 2.0j),
        C("keyword_order", "keyword_order", zeros(3, np.int64)),
        C("fill_calls", "fill_calls", zeros(5, np.float64)),
        C("fill_calls_strided", "fill_calls", every_other(zeros(4, np.float64))),
        C("blend", "blend", -0.5, 0.75),
        C("blend_wide", "blend", 2.0, -3.0),
        C("keyword_only_calls", "keyword_only_calls", 1.5),
        C("keyword_only_calls_negative", "keyword_only_calls", -4.0),
        C("positional_only_calls", "positional_only_calls", 1.25),
        C("positional_only_direct", "stretched", -2.0, 5, 0.125),
        C("array_default_calls", "array_default_calls", arr([1.0, 2.5, -4.0, 8.0], np.float64),
          arr([True, False, True, True], np.bool_)),
        C("array_default_calls_short", "array_default_calls", arr([1.0, 2.5], np.float64), arr([True, False], np.bool_)),
    ]
    return cases


@program("none_values")
def _none_values():
    return [
        C("clear", "clear", arr([1.0, -2.0, 3.5], np.float64)),
        C("clear_strided", "clear", every_other(arr([1.0, 2.0, 3.0, 4.0], np.float64))),
        C("fill_all", "fill_until_negative", arr([1.0, 2.0, 3.0], np.float64), zeros(3, np.float64)),
        C("fill_stops", "fill_until_negative", arr([1.0, -2.0, 3.0], np.float64), zeros(3, np.float64)),
        C("fill_stops_first", "fill_until_negative", arr([-1.0, 2.0], np.float64), zeros(2, np.float64)),
        C("scale", "scale_unless_zero", arr([1.0, -2.0, 0.5], np.float64), 4.0),
        C("scale_zero", "scale_unless_zero", arr([1.0, -2.0, 0.5], np.float64), 0.0),
        C("count_into_10", "count_into", zeros(1, np.int64), 10),
        C("count_into_0", "count_into", zeros(1, np.int64), 0),
        C("steps", "steps", arr([2.5, 1.0, -1.0, 4.0], np.float64), zeros(4, np.float64), 2.0, zeros(1, np.int64)),
        C("steps_zero", "steps", arr([3.0, 1.0], np.float64), zeros(2, np.float64), 0.0, zeros(1, np.int64)),
        C("steps_empty", "steps", arr([], np.float64), zeros(0, np.float64), 3.0, zeros(1, np.int64)),
    ]


@program("linalg.core")
def _linalg_core():
    return [
        C("dot", "dot", f64(5), f64(5)),
        C("dot_views", "dot", every_other(f64(3)), reversed_view(f64(3))),
        C("norm", "norm", arr([1.0, 2.0, 2.0], np.float64)),
        C("axpy_into", "axpy_into", 0.5, f64(4), f64(4)),
        C("scale_into", "scale_into", -2.0, every_other(f64(3))),
        C("copy_into", "copy_into", f64(3), reversed_view(zeros(3, np.float64))),
    ]


@program("uses_linalg")
def _uses_linalg():
    spd = arr([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]], np.float64)
    return [
        C("project", "project", f64(4), f64(4), zeros(4, np.float64)),
        C("project_axis", "project", arr([3.0, 4.0], np.float64), arr([0.0, 2.0], np.float64), zeros(2, np.float64)),
        C("cosine", "cosine", arr([1.0, 0.0], np.float64), arr([1.0, 1.0], np.float64)),
        C("cosine_random", "cosine", f64(5), f64(5)),
        C("orthogonalize", "orthogonalize", arr([1.0, 1.0, 0.0], np.float64), arr([1.0, 0.0, 0.0], np.float64), zeros(3, np.float64)),
        C("orthogonalize_random", "orthogonalize", f64(4), f64(4), zeros(4, np.float64)),
        C("power_iteration", "power_iteration", spd, arr([1.0, 1.0, 1.0], np.float64)),
        C("power_iteration_transposed", "power_iteration", transposed(spd), arr([1.0, 0.0, 0.0], np.float64)),
        C("power_iteration_diag", "power_iteration", np.diag([1.0, 5.0]), arr([0.6, 0.8], np.float64)),
    ]


@program("unbound_locals")
def _unbound_locals():
    f64 = lambda xs: arr(xs, np.float64)  # noqa: E731
    i64 = lambda xs: arr(xs, np.int64)  # noqa: E731
    return [
        C("if_without_else_bound", "if_without_else", 3),
        C("if_without_else_unbound", "if_without_else", 0),
        C("loop_variable_after_ran", "loop_variable_after", 4),
        C("loop_variable_after_empty", "loop_variable_after", 0),
        C("previous_value", "previous_value", f64([1.0, 4.0, 9.0])),
        C("previous_value_empty", "previous_value", f64([])),
        C("read_too_early", "read_too_early", f64([1.0, 2.0])),
        C("read_too_early_empty", "read_too_early", f64([])),
        C("found_by_break", "found_by_break", 10),
        C("last_match_found", "last_match", i64([3, 5, 7]), 5),
        C("last_match_else", "last_match", i64([3, 5, 7]), 4),
        C("conditional_read_bound", "conditional_read", 2),
        C("conditional_read_not_read", "conditional_read", -2),
    ]


@program("special")
def _special():
    T = "ulps=4"
    return [
        C("log_beta_2_3", "log_beta", 2.0, 3.0, tol=T),
        C("log_beta_half", "log_beta", 0.5, 0.5, tol=T),
        C("log_binom_10_3", "log_binom", 10, 3, tol=T),
        C("log_binom_50_25", "log_binom", 50, 25, tol=T),
        C("binom_f_10_3", "binom_f", 10, 3, tol="rel=1e-13"),
        C("normal_cdf_0", "normal_cdf", 0.0, tol=T),
        C("normal_cdf_1_96", "normal_cdf", 1.96, tol=T),
        C("normal_cdf_-3", "normal_cdf", -3.0, tol=T),
        C("normal_pdf_0", "normal_pdf", 0.0, tol=T),
        C("normal_pdf_1", "normal_pdf", 1.0, tol=T),
        C("erf32_half", "erf32", 0.5, tol=T),
        C("erf32_neg", "erf32", f32v(-1.3), tol=T),
        C("gamma_ratio_5_3", "gamma_ratio", 5.0, 3.0, tol=T),
        C("gamma_ratio_half", "gamma_ratio", 0.5, 1.5, tol=T),
        C("logistic32_0", "logistic32", 0.0, tol=T),
        C("logistic32_3", "logistic32", 3.0, tol=T),
        C("logistic32_-20", "logistic32", -20.0, tol=T),
        C("entropy_term_0", "entropy_term", 0.0),
        C("entropy_term_half", "entropy_term", 0.5, tol=T),
        C("log_sqrt_e2", "log_sqrt", math.e ** 2, tol=T),
        C("log_gamma32_3", "log_gamma32", f32v(3.0), tol=T),
        C("log_gamma32_half", "log_gamma32", f32v(0.5), tol=T),
    ]


MATH1 = {
    "sqrt": [0.0, 2.0, 1e-300, 16.0, math.inf],
    "exp": [0.0, 1.0, -2.5, 700.0],
    "exp2": [0.5, 10.0, -3.0],
    "expm1": [1e-10, 1.0, -1.0],
    "log": [1.0, 2.718281828459045, 1e-300, 0.5],
    "log2": [8.0, 3.0, 0.1],
    "log10": [1000.0, 2.0, 1e-5],
    "log1p": [1e-10, 1.0, -0.5],
    "sin": [0.0, 0.5, -3.0, 100.0],
    "cos": [0.0, 0.5, -3.0, 100.0],
    "tan": [0.0, 0.5, -1.2],
    "asin": [0.0, 0.5, -1.0],
    "acos": [1.0, 0.5, -0.3],
    "atan": [0.0, 1.0, -20.0],
    "sinh": [0.0, 1.0, -2.0],
    "cosh": [0.0, 1.0, -2.0],
    "tanh": [0.0, 0.5, -3.0],
    "asinh": [0.0, 1.0, -10.0],
    "acosh": [1.0, 2.0, 100.0],
    "atanh": [0.0, 0.5, -0.9],
    "floor": [2.5, -2.5, -0.0, 3.0],
    "ceil": [2.5, -2.5, -0.5, 3.0],
    "trunc": [2.7, -2.7, 0.3],
    "fabs": [-3.5, 0.0, -0.0, -math.inf],
    "cbrt": [27.0, -8.0, 2.0],
    "erf": [0.0, 0.5, -2.0],
    "erfc": [0.0, 0.5, 3.0],
    "lgamma": [1.0, 0.5, 10.0, 100.0],
    "tgamma": [1.0, 0.5, 5.0, 10.5],
}
EXACT1 = {"sqrt", "floor", "ceil", "trunc", "fabs"}
MATH2 = {
    "atan2": [(1.0, 1.0), (-1.0, -1.0), (0.0, -1.0), (3.0, 0.0)],
    "hypot": [(3.0, 4.0), (1e200, 1e200), (-5.0, 12.0)],
    "pow": [(2.0, 10.0), (2.0, 0.5), (-8.0, 3.0), (10.0, -2.0), (0.0, 0.0)],
    "fmod": [(7.5, 2.0), (-7.5, 2.0), (7.5, -2.0), (1.0, 0.1)],
    "copysign": [(3.0, -0.0), (-3.0, 1.0), (0.0, -1.0)],
    "fmin": [(1.0, 2.0), (math.nan, 2.0), (2.0, math.nan), (-1.0, -3.0)],
    "fmax": [(1.0, 2.0), (math.nan, 2.0), (2.0, math.nan), (-1.0, -3.0)],
}
EXACT2 = {"fmod", "copysign", "fmin", "fmax"}


@program("mathfuncs")
def _mathfuncs():
    cases = []
    for f, xs in MATH1.items():
        for x in xs:
            cases.append(C(f"{f}_f64_{x}", f"{f}_f64", x, tol=None if f in EXACT1 else "ulps=4", allow_over=True))
    for f, xys in MATH2.items():
        for x, y in xys:
            cases.append(C(f"{f}_f64_{x}_{y}", f"{f}_f64", x, y, tol=None if f in EXACT2 else "ulps=4"))
    for f in ["sqrt", "exp", "log", "sin", "cos", "tanh", "floor", "cbrt", "lgamma"]:
        for x in (0.5, 2.0, f32v(3.3)):
            cases.append(C(f"{f}_f32_{x}", f"{f}_f32", x, tol=None if f in ("sqrt", "floor") else "ulps=4"))
    for f in ["atan2", "hypot", "pow", "fmin"]:
        for x, y in ((0.5, 2.0), (f32v(3.3), f32v(-1.7))):
            if f == "pow" and x > 3:
                y = 1.5
            cases.append(C(f"{f}_f32_{x}_{y}", f"{f}_f32", x, y, tol=None if f == "fmin" else "ulps=4"))
    cases.append(C("mixed_atan2_f32", "mixed_atan2_f32", f32v(0.7), tol="ulps=4"))
    cases.append(C("pythagoras", "pythagoras", 0.7, tol="ulps=4"))
    cases.append(C("f32_times_sqrt3", "f32_times_sqrt3", f32v(0.1)))
    return cases


MATH_MODULE_FLOAT1 = [
    "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin",
    "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "gamma", "lgamma", "fabs",
]
MATH_MODULE_FUNCS = set(MATH_MODULE_FLOAT1) | {
    "atan2", "hypot", "copysign", "fmod", "pow", "floor", "ceil", "trunc", "isnan", "isinf", "isfinite",
    "isclose", "gcd",
}
MATH_MODULE_CONSTANTS = ("pi", "e", "tau", "inf", "nan")
MATH_MODULE_EXACT = ("sqrt", "fabs", "copysign", "fmod", "floor", "ceil", "trunc")


@program("array_functions")
def _array_functions():
    nan = np.nan
    inf = np.inf
    with_nans = arr([3.5, nan, -1.25, 8.0, nan, -inf, 2.0, inf, 0.5], np.float64)
    all_nan = arr([nan, nan, nan], np.float64)
    empty = zeros(0, np.float64)
    sorted_grid = arr([-2.0, -0.5, 0.0, 0.0, 1.5, 1.5, 1.5, 4.0, nan], np.float64)
    mat = arr([[1.5, nan, -3.0], [nan, 7.25, 7.25]], np.float64)
    big = ints(np.int32, -1000, 1000, 257)
    return [
        C("sorted_f64", "sorted_f64", with_nans),
        C("sorted_f64_random", "sorted_f64", f64(100)),
        C("sorted_f64_strided", "sorted_f64", every_other(with_nans)),
        C("sorted_f64_reversed", "sorted_f64", reversed_view(with_nans)),
        C("sorted_f64_empty", "sorted_f64", empty),
        C("sorted_f64_one", "sorted_f64", arr([nan], np.float64)),
        C("sorted_f32", "sorted_f32", f32(33)),
        C("sorted_f32_nans", "sorted_f32", arr([nan, 1.5, nan, -2.0], np.float32)),
        C("sorted_f16", "sorted_f16", arr([0.5, nan, -65504.0, 3.0, 1e-4], np.float16)),
        C("sorted_i32", "sorted_i32", big),
        C("sorted_i32_sorted", "sorted_i32", np.sort(big)),
        C("sorted_i32_descending", "sorted_i32", np.sort(big)[::-1].copy()),
        C("sorted_i8", "sorted_i8", arr([127, -128, 0, -1, 1, 127, -128], np.int8)),
        C("sorted_u8", "sorted_u8", reversed_view(arr([255, 0, 7, 7, 128, 1], np.uint8))),
        C("sorted_u64", "sorted_u64", arr([2**64 - 1, 0, 2**63, 5, 2**63 - 1], np.uint64)),
        C("sorted_bool", "sorted_bool", arr([True, False, True, True, False], np.bool_)),
        C("sorted_bool_strided", "sorted_bool", every_other(arr([True, False, True], np.bool_))),
        C("sort_in_place", "sort_in_place", with_nans.copy()),
        C("sort_in_place_strided", "sort_in_place", every_other(f64(9))),
        C("sort_in_place_reversed", "sort_in_place", reversed_view(f64(8))),
        C("sort_in_place_empty", "sort_in_place", zeros(0, np.float64)),
        C("sort_copy", "sort_copy", ints(np.int64, -50, 50, 31)),
        C("sort_every_other", "sort_every_other", ints(np.int16, -99, 99, 20), 2),
        C("sort_every_third_strided", "sort_every_other", every_other(ints(np.int16, -99, 99, 20)), 3),
        C("sort_reversed_slice", "sort_reversed_slice", f64(17)),
        C("sort_temporary", "sort_temporary", with_nans),
        C("sort_row", "sort_row", ints(np.int32, -9, 9, 3, 7), 1),
        C("sort_row_fortran", "sort_row", fortran(ints(np.int32, -9, 9, 3, 7)), 2),
        C("sort_columns", "sort_columns", arr([[3.0, nan, 1.0], [-1.0, 2.0, 1.0], [0.5, -inf, 0.0]], np.float64)),
        C("sort_columns_transposed", "sort_columns", transposed(f64(4, 3))),
        C("sort_columns_empty", "sort_columns", np.zeros((0, 2), np.float64)),
        C("median_odd", "median_of", f64(7)),
        C("median_even", "median_of", reversed_view(f64(10))),
        C("argsorted_stable", "argsorted_stable", arr([0.0, nan, -1.0, -0.0, 2.5, nan, -1.0, 0.0, -inf], np.float64)),
        C("argsorted_stable_strided", "argsorted_stable", every_other(with_nans)),
        C("argsorted_stable_empty", "argsorted_stable", empty),
        C("argsorted_random", "argsorted", f64(100)),
        C("argsorted_reversed", "argsorted", reversed_view(f64(40))),
        C("argsort_method", "argsort_method", ints(np.int32, -3, 3, 50)),
        C("argsorted_bool", "argsorted_bool", every_other(arr([True, False, True, False, False], np.bool_))),
        C("argsort_extremes", "argsort_extremes", arr([2**64 - 1, 0, 2**63, 5, 2**63 - 1], np.uint64)),
        C("spaced", "spaced", -1.5, 2.25, 7),
        C("spaced_one", "spaced", 3.0, 9.0, 1),
        C("spaced_none", "spaced", 3.0, 9.0, 0),
        C("spaced_flat", "spaced", 1e-320, 1e-320, 4),
        C("spaced_tiny_step", "spaced", 0.0, 1e-320, 5),
        C("spaced_negative", "spaced", 0.0, 1.0, -2),
        C("spaced_open", "spaced_open", 2, 7.5, 4),
        C("spaced_open_one", "spaced_open", 2, 7.5, 1),
        C("spaced_f32", "spaced_f32", np.float32(0.1), np.float32(-3.7)),
        C("outer_product", "outer_product", f64(4), reversed_view(ints(np.int32, -5, 5, 3))),
        C("outer_product_empty", "outer_product", f64(0), ints(np.int32, -5, 5, 3)),
        C("outer_bool", "outer_bool", arr([True, False, True], np.bool_), every_other(arr([True, True, False], np.bool_))),
        C("rolled", "rolled", arr(list(range(1, 6)), np.int64), 2),
        C("rolled_back", "rolled", arr(list(range(1, 6)), np.int64), -7),
        C("rolled_far", "rolled", arr(list(range(1, 6)), np.int64), 2**62 + 3),
        C("rolled_min", "rolled", arr(list(range(1, 6)), np.int64), -2**63),
        C("rolled_strided", "rolled", every_other(arr(list(range(1, 7)), np.int64)), 1),
        C("rolled_reversed", "rolled", reversed_view(arr(list(range(1, 5)), np.int64)), 3),
        C("rolled_empty", "rolled", zeros(0, np.int64), 3),
        C("rolled_flat", "rolled_flat", f64(3, 4), 5),
        C("rolled_flat_fortran", "rolled_flat", fortran(f64(2, 3)), -1),
        C("rolled_flat_transposed", "rolled_flat", transposed(f64(2, 3)), 4),
        C("rolled_flat_empty", "rolled_flat", np.zeros((0, 3)), 2),
        C("rolled_rows", "rolled_rows", ints(np.int32, -9, 9, 3, 4), 1),
        C("rolled_rows_back", "rolled_rows", ints(np.int32, -9, 9, 4, 3), -5),
        C("rolled_rows_empty_axis", "rolled_rows", np.zeros((2, 0), np.int32), 1),
        C("rolled_columns_of", "rolled_columns_of", f64(4, 6)),
        C("rolled_bools", "rolled_bools", arr([True, False, False, True, False], np.bool_), 2),
        C("scaled_pair", "scaled_pair", 2.0, 0.5),
        C("label_counts", "label_counts", arr([0, 2, 2, 1, 2], np.int32), 4),
        C("label_counts_beyond", "label_counts", arr([0, 5], np.int32), 3),
        C("crossed", "crossed", arr([1.5, -2.0, 0.25], np.float64), arr([0.5, 3.0, -1.0], np.float64)),
        C("crossed_strided", "crossed", every_other(f64(6)), reversed_view(f64(3))),
        C("crossed_four", "crossed", f64(4), f64(3)),
        C("crossed_ints", "crossed_ints", arr([1, 2, 3], np.int32), arr([-4, 5, 6], np.int64)),
        C("search_left", "search_left", sorted_grid, 1.5),
        C("search_left_low", "search_left", sorted_grid, -7.0),
        C("search_left_nan", "search_left", sorted_grid, nan),
        C("search_left_inf", "search_left", sorted_grid, inf),
        C("search_left_empty", "search_left", empty, 1.0),
        C("search_right", "search_right", sorted_grid, 1.5),
        C("search_right_zero", "search_right", sorted_grid, 0.0),
        C("search_right_nan", "search_right", sorted_grid, nan),
        C("search_right_strided", "search_right", every_other(sorted_grid), 1.5),
        C("search_right_reversed", "search_right", reversed_view(sorted_grid), 4.0),
        C("search_positional", "search_positional", arr([1, 2, 2, 2, 5, 9], np.int64), 2),
        C("search_positional_absent", "search_positional", arr([1, 2, 2, 2, 5, 9], np.int64), 3),
        C("search_int_float", "search_int_float", arr([1, 2, 3, 5], np.int32), 2.5),
        C("search_int_float_equal", "search_int_float", arr([1, 2, 3, 5], np.int32), 3.0),
        C("search_many", "search_many", sorted_grid, arr([1.5, -9.0, nan, 0.0, 4.0], np.float64)),
        C("search_many_empty", "search_many", sorted_grid, empty),
        C("search_sorted_copy", "search_sorted_copy", with_nans, 1.0),
        C("norm_default", "norm_default", arr([3.0, -4.0, 12.0], np.float64)),
        C("norm_default_random", "norm_default", f64(50), tol="ulps=8"),
        C("norm_default_empty", "norm_default", empty),
        C("norm_default_nan", "norm_default", arr([1.0, nan], np.float64)),
        C("norm_two_strided", "norm_two", every_other(arr([3.0, -4.0], np.float64))),
        C("norm_one", "norm_one", arr([3.0, -4.0, 0.5], np.float64)),
        C("norm_one_reversed", "norm_one", reversed_view(arr([3.0, -4.0, 0.5], np.float64))),
        C("norm_inf", "norm_inf", arr([3.0, -4.0, 0.5], np.float64)),
        C("norm_inf_empty", "norm_inf", empty),
        C("norm_inf_nan", "norm_inf", arr([3.0, nan, 0.5], np.float64)),
        C("norm_neg_inf", "norm_neg_inf", arr([3.0, -4.0, -0.5], np.float64)),
        C("norm_neg_inf_empty", "norm_neg_inf", empty),
        C("norm_zero", "norm_zero", arr([3.0, 0.0, -0.0, 2.0, nan], np.float64)),
        C("norm_three", "norm_three", arr([3.0, -4.0, 5.0], np.float64), tol="ulps=2"),
        C("norm_three_empty", "norm_three", empty),
        C("norm_int", "norm_int", arr([3, -4], np.int32)),
        C("norm_int_strided", "norm_int", every_other(arr([5, 0, -12], np.int32))),
        C("norm_f32", "norm_f32", arr([1.5, -2.25, 4.0], np.float32)),
        C("norm_fro", "norm_fro", arr([[1.0, -2.0], [2.0, 4.0]], np.float64)),
        C("norm_fro_transposed", "norm_fro", transposed(arr([[1.0, -2.0], [2.0, 4.0]], np.float64))),
        C("norm_matrix", "norm_matrix", arr([[1, 2, 2], [0, -4, 0]], np.int64)),
        C("norm_matrix_empty", "norm_matrix", np.zeros((3, 0), np.int64)),
        C("norm_complex", "norm_complex", arr([3 + 4j, -12j, 0j], np.complex128)),
        C("norm_complex_strided", "norm_complex", every_other(arr([3 + 4j, 1 - 1j], np.complex128)), tol="ulps=2"),
        C("norm_complex_empty", "norm_complex", zeros(0, np.complex128)),
        C("norm_complex_one", "norm_complex_one", arr([3 + 4j, -0.5 + 0j, 1.5j], np.complex64)),
        C("norm_complex_inf", "norm_complex_inf", reversed_view(arr([3 + 4j, -6 + 0j, 1j], np.complex128))),
        C("norm_complex_zero", "norm_complex_zero", arr([0j, 1e-300j, -0.0 + 0j, 2 + 0j], np.complex128)),
        C("nansum_f64", "nansum_f64", with_nans[[0, 1, 2, 3, 6, 8]].copy()),
        C("nansum_f64_inf", "nansum_f64", with_nans),
        C("nansum_f64_all_nan", "nansum_f64", all_nan),
        C("nansum_f64_empty", "nansum_f64", empty),
        C("nansum_i8", "nansum_i8", arr([127, 127, -3], np.int8)),
        C("nansum_i8_strided", "nansum_i8", every_other(arr([100, 100, 100], np.int8))),
        C("nanprod_f64", "nanprod_f64", arr([2.0, nan, -1.5, nan, 4.0], np.float64)),
        C("nanprod_f64_empty", "nanprod_f64", empty),
        C("nanmin_f64", "nanmin_f64", mat),
        C("nanmin_f64_transposed", "nanmin_f64", transposed(mat)),
        C("nanmin_f64_all_nan", "nanmin_f64", arr([[nan], [nan]], np.float64)),
        C("nanmin_f64_empty", "nanmin_f64", np.zeros((2, 0), np.float64)),
        C("nanmax_f32", "nanmax_f32", arr([nan, -1.0, 2.5, nan], np.float32)),
        C("nanmax_f32_first_nan", "nanmax_f32", arr([nan, -3.0], np.float32)),
        C("nanmax_f32_all_nan", "nanmax_f32", arr([nan], np.float32)),
        C("nanmin_i16", "nanmin_i16", arr([5, -300, 7, -300], np.int16)),
        C("nanmin_i16_empty", "nanmin_i16", zeros(0, np.int16)),
        C("nanargmin_f64", "nanargmin_f64", with_nans),
        C("nanargmin_f64_ties", "nanargmin_f64", arr([nan, 2.0, 1.0, nan, 1.0], np.float64)),
        C("nanargmin_f64_reversed", "nanargmin_f64", reversed_view(arr([nan, 2.0, 1.0, nan, 1.0], np.float64))),
        C("nanargmin_f64_all_nan", "nanargmin_f64", all_nan),
        C("nanargmin_f64_empty", "nanargmin_f64", empty),
        C("nanargmax_f64", "nanargmax_f64", mat),
        C("nanargmax_f64_fortran", "nanargmax_f64", fortran(arr([[1.0, nan], [9.0, 9.0]], np.float64))),
        C("nanargmax_f64_all_nan", "nanargmax_f64", arr([[nan, nan]], np.float64)),
        C("nanargmax_f64_empty", "nanargmax_f64", np.zeros((0, 3), np.float64)),
        C("nanmean_f64", "nanmean_f64", arr([1.0, nan, 2.0, 4.5, nan], np.float64)),
        C("nanmean_f64_strided", "nanmean_f64", every_other(arr([1.0, nan, 2.0, 4.5, nan], np.float64))),
        C("nanmean_f64_all_nan", "nanmean_f64", all_nan),
        C("nanmean_f64_empty", "nanmean_f64", empty),
        C("nanmean_f32", "nanmean_f32", arr([1.5, nan, -0.25, 3.0], np.float32)),
        C("nanmean_i32", "nanmean_i32", arr([1, 2, 4, -9], np.int32)),
        C("nanmean_i32_empty", "nanmean_i32", zeros(0, np.int32)),
        C("nanvar_f64", "nanvar_f64", arr([1.0, nan, 2.0, 4.5, nan, 0.5], np.float64)),
        C("nanvar_f64_all_nan", "nanvar_f64", all_nan),
        C("nanvar_f64_empty", "nanvar_f64", empty),
        C("nanvar_f64_one", "nanvar_f64", arr([nan, 3.0], np.float64)),
        C("nanvar_ddof", "nanvar_ddof", arr([1.0, nan, 2.0, 4.5, nan, 0.5], np.float64), 1),
        C("nanvar_ddof_too_many", "nanvar_ddof", arr([1.0, nan, 2.0], np.float64), 2),
        C("nanvar_ddof_more", "nanvar_ddof", arr([1.0, nan, 2.0], np.float64), 5),
        C("nanstd_f64", "nanstd_f64", arr([2.0, 4.0, nan, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0], np.float64)),
        C("nanstd_f64_reversed", "nanstd_f64", reversed_view(arr([1.0, nan, 2.0, 4.5], np.float64))),
        C("joined", "joined", arr([1.5, -2.0], np.float64), arr([7, -3, 2], np.int32)),
        C("joined_empty", "joined", zeros(0, np.float64), every_other(arr([4, 5, 6], np.int32))),
        C("differences", "differences", arr([1, 4, 9, 16, -2], np.int64)),
        C("differences_one", "differences", arr([3], np.int64)),
        C("differences_empty", "differences", zeros(0, np.int64)),
        C("differences_reversed", "differences", reversed_view(arr([1, 4, 9, 16], np.int64))),
        C("changes", "changes", arr([True, True, False, True, False, False], np.bool_)),
        C("nonzero_at", "nonzero_at", arr([[0.0, 1.5, 0.0], [-2.0, 0.0, nan]], np.float64)),
        C("nonzero_at_transposed", "nonzero_at", transposed(arr([[0.0, 1.5, 0.0], [-2.0, 0.0, 3.0]], np.float64))),
        C("nonzero_at_none", "nonzero_at", np.zeros((2, 2), np.float64)),
        C("distinct", "distinct", arr([3.0, -1.0, 3.0, nan, 2.5, -1.0, nan, 0.0, -0.0], np.float64)),
        C("distinct_empty", "distinct", zeros(0, np.float64)),
        C("distinct_one", "distinct", arr([7.0], np.float64)),
        C("labelled", "labelled", arr([3, 1, 3, 3, 0, 1], np.int64), 3),
        C("labelled_none", "labelled", arr([3, 1], np.int64), 7),
        C("labelled_reversed", "labelled", reversed_view(arr([3, 1, 3, 3, 0, 1], np.int64)), 1),
        C("tie_correction", "tie_correction", arr([1.0, 2.5, 2.5, 4.0, 5.5, 5.5, 5.5, 8.0], np.float64)),
        C("tie_correction_one", "tie_correction", arr([1.0], np.float64)),
        C("var_f64", "var_f64", mat),
        C("var_f64_transposed", "var_f64", transposed(arr([[1.0, 2.5], [-4.0, 8.0], [0.5, 0.25]], np.float64))),
        C("var_f64_nan", "var_f64", arr([[1.0, nan], [2.0, 3.0]], np.float64)),
        C("var_f64_empty", "var_f64", np.zeros((2, 0), np.float64)),
        C("var_ddof", "var_ddof", arr([1.0, 2.0, 4.5, 0.5], np.float64), 1),
        C("var_ddof_equal", "var_ddof", arr([2.0, 2.0], np.float64), 2),
        C("var_ddof_negative", "var_ddof", arr([1.0, 2.0], np.float64), -1),
        C("std_f32", "std_f32", arr([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0], np.float32)),
        C("std_f32_reversed", "std_f32", reversed_view(arr([1.5, -0.25, 3.0], np.float32))),
        C("spreads", "spreads", arr([1.5, -2.0, 4.0, 0.25, 3.0], np.float64), 2),
        C("spreads_reversed", "spreads", reversed_view(arr([1.5, -2.0, 4.0, 0.25], np.float64)), 0),
        C("var_i64", "var_i64", arr([1, 2, 4, -9, 7], np.int64), 0.5),
        C("var_i64_strided", "var_i64", every_other(arr([10, 20, 40, -90, 70], np.int64)), 0.0),
        C("rolling_nanvar", "rolling_nanvar", arr([1.0, 2.0, nan, 4.0, 0.5, 0.5, nan, nan, 8.0], np.float64), 3),
        C("rolling_nanvar_strided", "rolling_nanvar", every_other(arr([1.0, 2.0, nan, 4.0, 0.5], np.float64)), 2),
        C("made_floats", "made_floats", -0.5),
        C("made_matrix", "made_matrix", 7),
        C("made_with_dtype", "made_with_dtype", 0.1),
        C("made_truncated", "made_truncated", -7.9),
        C("made_promoted", "made_promoted", -8),
        C("made_mixed", "made_mixed", 3, f32v(0.1)),
        C("made_bools", "made_bools", 2.0),
        C("made_bools_nan", "made_bools", nan),
        C("made_then_sorted", "made_then_sorted", 5.0, -1.5),
        C("made_then_sorted_nan", "made_then_sorted", nan, 2.0),
        C("top_sum", "top_sum", arr([0.5, 7.25, -3.0, 9.5, 2.0, 7.25, 1.0], np.float64), 3),
        C("top_sum_all", "top_sum", arr([0.5, 7.25, -3.0], np.float64), 2),
        C("top_sum_nan", "top_sum", arr([0.5, nan, -3.0, 4.0], np.float64), 2),
        C("top_sum_empty", "top_sum", zeros(0, np.float64), 4),
        C("top_sum_kth_too_large", "top_sum", arr([0.5, 7.25, -3.0], np.float64), 3),
        C("top_sum_kth_negative", "top_sum", arr([0.5, 7.25, -3.0], np.float64), -1),
        C("partitioned_at", "partitioned_at", arr([9, -2, 41, 7, 7, 0, 13, -5], np.int32), arr([1, 4, 6], np.int64)),
        C("partitioned_at_negative", "partitioned_at", arr([9, -2, 41, 7], np.int32), arr([-1, 0], np.int64)),
        C("partitioned_at_out_of_bounds", "partitioned_at", arr([9, -2, 41, 7], np.int32), arr([1, -5], np.int64)),
    ]


@program("math_module")
def _math_module():
    inf, nan = float("inf"), float("nan")
    # CPython computes gamma and lgamma with its own Lanczos sums, postc
    # with the C library's: they agree to a few ulps. The WebAssembly
    # backend's erfc is 8 ulps from glibc's at 1.0.
    tol = lambda f: None if f in MATH_MODULE_EXACT else "ulps=16" if "gamma" in f or f == "erfc" else "ulps=4"
    cases = []
    f64_args = (0.5, 2.0, -0.75, 0.0, -1.0, 1000.0, inf, -inf, nan, -3.0, 200.0)
    for k, f in enumerate(MATH_MODULE_FLOAT1):
        # float1(k, t, x, x32, n, b) calls function k of the argument t.
        for x in f64_args:
            cases.append(C(f"{f}_f64_{x}", "float1", k, 0, x, 1.0, 1, True, tol=tol(f), allow_over=True))
        for x in (f32v(0.3), f32v(1.7), -2.0, 0.0, f32v(90.5)):
            cases.append(C(f"{f}_f32_{x}", "float1", k, 1, 1.0, x, 1, True, tol=tol(f), allow_over=True))
        for n in (3, -4, 0, 1, 2**53 + 1):
            cases.append(C(f"{f}_int_{n}", "float1", k, 2, 1.0, 1.0, n, True, tol=tol(f), allow_over=True))
        for b in (False, True):
            cases.append(C(f"{f}_bool_{b}", "float1", k, 3, 1.0, 1.0, 1, b, tol=tol(f), allow_over=True))
    pairs = ((0.5, 2.0), (-1.5, -0.25), (0.0, -1.0), (2.0, 0.5), (-8.0, 1.0 / 3.0), (10.0, 400.0),
             (0.0, 0.0), (inf, 2.0), (1.0, nan), (nan, 0.0), (inf, 1.0), (-0.0, -inf), (3.0, inf))
    for k, f in enumerate(["atan2", "hypot", "copysign", "fmod", "pow"]):
        for x, y in pairs:
            cases.append(C(f"{f}_{x}_{y}", "float2", k, x, y, tol=tol(f), allow_over=True))
    cases += [
        C("sqrt_f32", "sqrt_f32", f32v(2.0)),
        C("exp_f32", "exp_f32", f32v(0.1), tol="ulps=4"),
        C("pow_f32", "pow_f32", f32v(1.1), f32v(2.5), tol="ulps=4"),
        C("atan2_f32", "atan2_f32", f32v(-0.3), f32v(0.7), tol="ulps=4"),
        C("log_int", "log_int", 10**15 + 7, tol="ulps=4"),
        C("log_int_zero", "log_int", 0),
        C("hypot_int", "hypot_int", 3, 4, tol="ulps=4"),
        C("sqrt_bool", "sqrt_bool", True, tol="ulps=4"),
        C("copysign_bool", "copysign_bool", True, -0.0),
    ]
    for f in ("floor", "ceil", "trunc"):
        for x in (2.5, -2.5, 0.0, -0.0, 1e18, -7.0, nan, inf, -inf):
            cases.append(C(f"{f}_{x}", f"{f}_f64", x))
    cases += [
        C("rounding_f32", "rounding_f32", f32v(-3.7)),
        C("rounding_f32_pos", "rounding_f32", f32v(12.25)),
        C("rounding_int", "rounding_int", -17, True),
        C("rounding_int_big", "rounding_int", 2**53 + 1, False),
        C("rounding_locals", "rounding_locals", -2.5, 7),
        C("rounding_locals_whole", "rounding_locals", 3.0, -4),
        C("rounding_locals_nan_panics", "rounding_locals", float("nan"), 1),
    ]
    for x in (1.5, nan, inf, -inf, -0.0):
        cases.append(C(f"classify_{x}", "classify", x))
    cases += [
        C("classify_f32", "classify_f32", f32v(3.5)),
        C("classify_f32_inf", "classify_f32", inf),
        C("classify_int", "classify_int", 5, False),
        C("weak_float_meets_f32", "weak_float_meets_f32", f32v(2.5)),
        C("weak_int_meets_i32", "weak_int_meets_i32", 70000, -2.5),
        C("constants", "constants", f32v(1.25)),
        C("inf", "special_constants", 0),
        C("minus_inf", "special_constants", 1),
        C("nan", "special_constants", 2),
        C("circle_area", "circle_area", f32v(0.1), tol="ulps=4"),
    ]
    close_pairs = ((1.0, 1.0 + 1e-10), (1.0, 1.0 + 1e-8), (0.0, 1e-300), (0.0, -0.0), (1e300, 1.0000000001e300),
                   (inf, inf), (inf, -inf), (inf, 1e308), (-1e308, -inf), (nan, nan), (nan, 1.0), (-2.0, -2.000000001))
    cases += [C(f"close_{x}_{y}", "close", x, y) for x, y in close_pairs]
    cases += [C("close_mixed", "close_mixed", f32v(3.0), 3), C("close_mixed_no", "close_mixed", f32v(3.1), 3)]
    cases += [C(f"common_divisor_{k}", "common_divisor", a, np.int32(b))
              for k, (a, b) in enumerate([(12, 18), (-12, 18), (0, 0), (7, -21), (-2**63, 6), (2**63 - 1, 2**31 - 1)])]
    return cases


@program("unsigned")
def _unsigned():
    big = 2**64 - 1
    return [
        C("u64_less_big", "u64_less", 2**63, big),
        C("u64_less_no", "u64_less", big, 1),
        C("u64_less_equal", "u64_less", 5, 5),
        C("u64_max", "u64_max", 2**63 + 7, 2**63 - 7),
        C("u64_gcd", "u64_gcd", big, 2**32 - 1),
        C("u64_gcd_pow2", "u64_gcd", 2**63, 2**62 * 3),
        C("u64_gcd_zero", "u64_gcd", 0, 12),
        C("u64_lcm", "u64_lcm", 4, 6),
        C("u64_lcm_big", "u64_lcm", 2**32, 2**31 * 3),
        C("u64_lcm_zero", "u64_lcm", 0, 6),
        C("u64_complement", "u64_complement", 1),
        C("u64_complement_big", "u64_complement", big),
        C("sat_add8_sat", "sat_add8", 200, 100),
        C("sat_add8_fit", "sat_add8", 200, 55),
        C("sat_add8_zero", "sat_add8", 0, 0),
        C("u16_sum", "u16_sum", arr([65535, 65535, 65535, 1], np.uint16)),
        C("u16_sum_strided", "u16_sum", every_other(arr([10, 20, 30], np.uint16))),
        C("u16_absdiff_ab", "u16_absdiff", 65535, 3),
        C("u16_absdiff_ba", "u16_absdiff", 3, 65535),
        C("u32_floor_avg", "u32_floor_avg", 4294967295, 4294967293),
        C("u32_floor_avg_small", "u32_floor_avg", 3, 6),
        C("u32_divmod", "u32_divmod", 123456, 1000),
        C("u32_divmod_zero", "u32_divmod", 5, 0),
        C("u8_histogram_max", "u8_histogram_max", bytes_arr(b"mississippi")),
        C("u8_histogram_max_empty", "u8_histogram_max", zeros(0, np.uint8)),
        C("u8_histogram_max_ff", "u8_histogram_max", arr([255, 0, 255], np.uint8)),
    ]


@program("widths")
def _widths():
    return [
        C("sum8", "sum8", arr([-128, -128, 127, 127, 1], np.int8)),
        C("sum8_random", "sum8", ints(np.int8, -128, 127, 50)),
        C("dot16", "dot16", arr([-32768, 32767, 100], np.int16), arr([2, 2, -3], np.int16)),
        C("dot16_strided", "dot16", every_other(ints(np.int16, -300, 300, 6)), ints(np.int16, -300, 300, 6)),
        C("clamp8_low", "clamp8", -1000),
        C("clamp8_high", "clamp8", 1000),
        C("clamp8_mid", "clamp8", -77),
        C("mid16", "mid16", 32767, 32765),
        C("mid16_neg", "mid16", -32768, -1),
        C("mid16_mixed", "mid16", -3, 0),
        C("abs32", "abs32", -2147483647),
        C("abs32_pos", "abs32", 12),
        C("neg8", "neg8", 127),
        C("neg8_neg", "neg8", -127),
        C("scale16", "scale16", -181, 181),
        C("scale16_small", "scale16", 7, -3),
        C("saturate16_high", "saturate16", 10**12),
        C("saturate16_low", "saturate16", -(10**12)),
        C("saturate16_mid", "saturate16", -1234),
        C("int8_mean", "int8_mean", arr([-128, 127, 5, 4], np.int8)),
        C("int8_mean_random", "int8_mean", ints(np.int8, -128, 127, 7)),
        C("sign_counts", "sign_counts", arr([-1, 0, 5, 7, -2, 0, 0], np.int32)),
        C("sign_counts_empty", "sign_counts", zeros(0, np.int32)),
    ]


@program("bools")
def _bools():
    cases = []
    for a in (False, True):
        for b in (False, True):
            cases.append(C(f"implies_{a}_{b}", "implies", a, b))
            cases.append(C(f"xor_{a}_{b}", "xor", a, b))
            for c in (False, True):
                cases.append(C(f"majority_{a}_{b}_{c}", "majority", a, b, c))
    x = arr([0.5, -1.0, 2.0, math.nan, 1.0, 0.999], np.float64)
    cases += [
        C("count_true", "count_true", arr([True, False, True, True], np.bool_)),
        C("count_true_strided", "count_true", every_other(arr([True, True, False], np.bool_))),
        C("range_mask", "range_mask", x, 0.0, 1.0, zeros(6, np.bool_)),
        C("range_mask_strided_out", "range_mask", x[:3].copy(), -1.0, 2.0, every_other(zeros(3, np.bool_))),
        C("all_true_yes", "all_true", arr([True, True], np.bool_)),
        C("all_true_no", "all_true", arr([True, False, True], np.bool_)),
        C("all_true_empty", "all_true", zeros(0, np.bool_)),
        C("any_nonzero_yes", "any_nonzero", arr([0, 0, -3, 0], np.int64)),
        C("any_nonzero_no", "any_nonzero", arr([0, 0], np.int64)),
        C("is_nan_nan", "is_nan", math.nan),
        C("is_nan_inf", "is_nan", math.inf),
        C("truthy_0", "truthy", 0.0),
        C("truthy_neg0", "truthy", -0.0),
        C("truthy_nan", "truthy", math.nan),
        C("truthy_small", "truthy", 5e-324),
        C("both_positive_yes", "both_positive", 1, 2),
        C("both_positive_no", "both_positive", 1, -2),
        C("both_positive_first", "both_positive", 0, 2),
        C("select_mask", "select_mask", arr([True, False, False, True], np.bool_), f64(4), f64(4), zeros(4, np.float64)),
    ]
    cases += [
        C("unread_count", "unread_count", arr([True, False, True], np.bool_), 3),
        C("unread_count_strided", "unread_count", every_other(arr([True, False, True, True], np.bool_)), 2),
        C("unread_count_beyond", "unread_count", arr([True, False], np.bool_), 3),
        C("flagged_0", "flagged", 1, 2.0),
        C("flagged_1", "flagged", 0, 2.0),
        C("flagged_2", "flagged", 1, -1.0),
        C("flagged_3", "flagged", 0, 11.0),
        C("flagged_4", "flagged", 0, -3.0),
        C("flagged_5", "flagged", 2, 0.0),
        C("flagged_6", "flagged", -1, float("nan")),
    ]
    return cases


@program("control")
def _control():
    a = arr([7, 9, 14, 21, 30], np.int64)
    cases = [C(f"classify_{n}", "classify", n) for n in (-5, 0, 999, 1000)]
    cases += [C(f"fizzbuzz_code_{n}", "fizzbuzz_code", n) for n in (15, 9, 10, 7, 0, -30)]
    cases += [
        C("first_multiple_7", "first_multiple", a, 7),
        C("first_multiple_3", "first_multiple", a, 3),
        C("first_multiple_none", "first_multiple", a, 11),
        C("first_multiple_by_zero", "first_multiple", a, 0),
        C("sum_skip_negative", "sum_skip_negative", f64(8)),
        C("pair_sum_index", "pair_sum_index", arr([3, 8, -2, 5, 11], np.int64), 9),
        C("pair_sum_index_none", "pair_sum_index", arr([1, 2], np.int64), 9),
        C("noop", "noop", 3),
        C("noop_neg", "noop", -3),
        C("countdown_room", "countdown", 3, zeros(5, np.int64)),
        C("countdown_full", "countdown", 9, zeros(4, np.int64)),
        C("countdown_zero", "countdown", 0, zeros(2, np.int64)),
    ]
    cases += [C(f"steps_of_three_{a}_{b}", "steps_of_three", a, b) for a, b in ((0, 10), (5, 6), (10, 0), (-7, 8))]
    cases += [C(f"down_from_{a}_{b}", "down_from", a, b) for a, b in ((10, 0), (9, -1), (0, 10), (3, 2))]
    cases += [C(f"sign_float_{x}", "sign_float", x) for x in (2.5, -0.1, 0.0, math.nan)]
    cases += [C(f"loop_var_after_{n}", "loop_var_after", n) for n in (0, 3, 100)]
    cases += [C(f"digits_{n}", "digits", n) for n in (0, 9, 10, 123456789)]
    cases += [C(f"first_root_above_{n}", "first_root_above", n) for n in (-5, 0, 50, 10**12)]
    return cases


@program("index_arrays")
def _index_arrays():
    i64, i32 = np.int64, np.int32
    grid = f64(4, 3)
    return [
        C("take", "take", f64(6), arr([0, 5, -1, 2, 2], i64)),
        C("take_strided", "take", every_other(f64(6)), reversed_view(arr([3, -6, 1], i64))),
        C("take_empty", "take", f64(4), zeros(0, i64)),
        C("take_oob", "take", f64(4), arr([1, 4], i64)),
        C("take_oob_negative", "take", f64(4), arr([-5], i64)),
        C("take_rows", "take_rows", grid, arr([3, 0, -1], i32)),
        C("take_rows_fortran", "take_rows", fortran(grid), arr([1, 1], i32)),
        C("take_rows_transposed", "take_rows", transposed(f64(3, 5)), arr([2, 0], i32)),
        C("take_grid", "take_grid", arr([10, 20, 30, 40], i64), arr([[0, 1, 2], [3, -1, -4]], i64)),
        C("sorted_by_argsort", "sorted_by_argsort", f64(9)),
        C("positives", "positives", f64(10)),
        C("positives_reversed", "positives", reversed_view(f64(7))),
        C("positives_none", "positives", arr([-1.0, -2.0], np.float64)),
        C("kept_rows", "kept_rows", ints(i32, -9, 9, 4, 3), arr([True, False, True, True], np.bool_)),
        C("kept_rows_strided", "kept_rows", every_other(ints(i32, -9, 9, 3, 2)), every_other(arr([False, True, True], np.bool_))),
        C("kept_rows_mismatch", "kept_rows", ints(i32, -9, 9, 4, 3), arr([True, False], np.bool_)),
        C("above_half", "above_half", np.round(rng.uniform(0, 1, size=(3, 4)), 3)),
        C("above_half_fortran", "above_half", fortran(np.round(rng.uniform(0, 1, size=(3, 4)), 3))),
        C("clip_negative", "clip_negative", f64(8)),
        C("clip_negative_strided", "clip_negative", every_other(f64(5))),
        C("put", "put", zeros(5, np.float64), arr([4, 0, -2, 0], i64), arr([1.5, 2.5, 3.5, 4.5], np.float64)),
        C("put_broadcast", "put", zeros(5, np.float64), arr([1, 3], i64), arr([9.0], np.float64)),
        C("put_mismatch", "put", zeros(5, np.float64), arr([1, 3, 4], i64), arr([1.0, 2.0], np.float64)),
        C("put_oob", "put", zeros(5, np.float64), arr([5], i64), arr([1.0], np.float64)),
        C("put_number", "put_number", ints(i32, 0, 9, 6), arr([5, 0, 5], np.uint8)),
        C("put_rows", "put_rows", zeros((3, 2), np.float64), arr([2, 0], i64), arr([1.5, -2.5], np.float64)),
        C("put_masked", "put_masked", arr([1, 2, 3, 4, 6], i64), arr([-2, -4, -6], i64)),
        C("put_masked_mismatch", "put_masked", arr([1, 2, 3, 4, 6], i64), arr([-2, -4], i64)),
        C("reverse_through_indices", "reverse_through_indices", arr([1, 2, 3, 4, 5], i64)),
        C("reverse_through_indices_strided", "reverse_through_indices", every_other(arr([1, 2, 3, 4], i64))),
        C("masked_total", "masked_total", f64(12), 0.5),
        C("masked_total_empty", "masked_total", f64(3), 100.0),
        C("category_means", "category_means", arr([[1.0, 2.0, 3.0], [4.0, 5.5, 6.0], [7.0, 8.0, 9.5], [0.5, 1.5, 2.5]], np.float64),
          arr([0, 1, 0, 1], np.int64), 1, tol="ulps=2"),
        C("category_means_none", "category_means", arr([[1.0, 2.0], [3.0, 4.0]], np.float64), arr([0, 0], np.int64), 1),
        C("category_means_mismatch", "category_means", arr([[1.0, 2.0], [3.0, 4.0]], np.float64), arr([1, 1, 1], np.int64), 1),
        C("picked", "picked", arr(list(range(24)), np.int32).reshape(2, 3, 4), arr([2, -3, 1], np.int64), 1, -1),
        C("picked_out_of_bounds", "picked", arr(list(range(24)), np.int32).reshape(2, 3, 4), arr([0], np.int64), 2, 0),
        C("picked_row_out_of_bounds", "picked", arr(list(range(24)), np.int32).reshape(2, 3, 4), arr([3], np.int64), 0, 0),
    ]


@program("panics")
def _panics():
    a = arr([1.5, 2.5, 3.5, 4.5], np.float64)
    m = arr([[-10, -3, 4], [11, 18, 25]], np.int32)
    return [
        C("get_2", "get", a, 2),
        C("get_-1", "get", a, -1),
        C("get_-4", "get", a, -4),
        C("get_4", "get", a, 4),
        C("get_-5", "get", a, -5),
        C("get_strided_oob", "get", every_other(a), 4),
        C("get2_1_2", "get2", m, 1, 2),
        C("get2_-1_-3", "get2", m, -1, -3),
        C("get2_1_3", "get2", m, 1, 3),
        C("get2_2_0", "get2", m, 2, 0),
        C("get2_0_-4", "get2", m, 0, -4),
        C("get2_-3_9", "get2", m, -3, 9),
        C("dims_check_2", "dims_check", 2),
        C("dims_check_3", "dims_check", 3),
        C("dims_check_0", "dims_check", 0),
        C("dims_check_-1", "dims_check", -1),
        C("put_1", "put", zeros(3, np.uint8), 1, 7),
        C("put_-1", "put", zeros(3, np.uint8), -1, 7),
        C("put_3", "put", zeros(3, np.uint8), 3, 7),
        C("put_-4", "put", zeros(3, np.uint8), -4, 7),
        C("add_at_0", "add_at", a, 0, 0.25),
        C("add_at_9", "add_at", a, 9, 0.25),
        C("add_at_-9", "add_at", a, -9, 0.25),
        C("put2_transposed", "put2", transposed(zeros((3, 2), np.int32)), 1, 2, 5),
        C("put2_oob_axis1", "put2", zeros((2, 3), np.int32), 0, 3, 5),
        C("put2_oob_axis0", "put2", zeros((2, 3), np.int32), -3, 0, 5),
        C("idiv_7_0", "idiv", 7, 0),
        C("idiv_-7_2", "idiv", -7, 2),
        C("imod_7_0", "imod", 7, 0),
        C("imod_-7_3", "imod", -7, 3),
        C("must_be_positive_5", "must_be_positive", 5),
        C("must_be_positive_0", "must_be_positive", 0),
        C("must_be_even_4", "must_be_even", 4),
        C("must_be_even_3", "must_be_even", 3),
        C("checked_sum_4", "checked_sum", a, 4),
        C("checked_sum_5", "checked_sum", a, 5),
        C("stepped_10_3", "stepped", 10, 3),
        C("stepped_10_-1", "stepped", 10, -1),
        C("stepped_10_0", "stepped", 10, 0),
        C("last_of_1", "last_of", a, 1),
        C("last_of_5", "last_of", a, 5),
        C("average_bucket_20_3", "average_bucket", 20, 3),
        C("average_bucket_20_0", "average_bucket", 20, 0),
        C("average_bucket_20_1", "average_bucket", 20, 1),
    ]


@program("montecarlo")
def _montecarlo():
    return [
        C("lcg_next_1", "lcg_next", 1),
        C("lcg_next_big", "lcg_next", 2147483646),
        C("lcg_nth_park_miller", "lcg_nth", 1, 10000),
        C("lcg_nth_0_steps", "lcg_nth", 42, 0),
        C("uniforms", "uniforms", 12345, zeros(6, np.float64)),
        C("uniforms_strided", "uniforms", 7, every_other(zeros(3, np.float64))),
        C("estimate_pi_1000", "estimate_pi", 2024, 1000),
        C("estimate_pi_1", "estimate_pi", 1, 1),
        C("random_walk", "random_walk", 99, 12, zeros(12, np.int64)),
        C("random_walk_partial", "random_walk", 5, 3, zeros(5, np.int64)),
    ]


@program("integrate")
def _integrate():
    xs = np.linspace(0.0, 1.0, 11)
    y = xs * xs
    return [
        C("trapezoid_x2", "trapezoid", y, 0.1),
        C("trapezoid_two", "trapezoid", arr([1.0, 3.0], np.float64), 2.0),
        C("trapezoid_strided", "trapezoid", every_other(f64(5)), 0.5),
        C("simpson_x2", "simpson", y, 0.1),
        C("simpson_random", "simpson", f64(7), 0.25),
        C("simpson_even", "simpson", f64(4), 0.25),
        C("cumtrapz", "cumtrapz", y, 0.1, zeros(11, np.float64)),
        C("cumtrapz_reversed", "cumtrapz", reversed_view(f64(5)), 1.0, reversed_view(zeros(5, np.float64))),
        C("poly_integral_0_2", "poly_integral", 0.0, 2.0, 100, tol="ulps=16"),
        C("poly_integral_neg", "poly_integral", -1.0, 1.0, 7, tol="ulps=16"),
        C("interp_mid", "interp", 2.5, arr([1.0, 2.0, 3.0, 4.0], np.float64), arr([10.0, 20.0, 40.0, 80.0], np.float64)),
        C("interp_knot", "interp", 3.0, arr([1.0, 2.0, 3.0, 4.0], np.float64), arr([10.0, 20.0, 40.0, 80.0], np.float64)),
        C("interp_low", "interp", -1.0, arr([1.0, 2.0], np.float64), arr([5.0, 6.0], np.float64)),
        C("interp_high", "interp", 9.0, arr([1.0, 2.0], np.float64), arr([5.0, 6.0], np.float64)),
        C("interp_random", "interp", 0.3, np.sort(f64(8)), f64(8)),
    ]


@program("gpu_kernels")
def _gpu_kernels():
    return [
        C("report_bad_length", "report_bad_length", 5, 3),
        C("fma_like", "fma_like", f32v(0.1), f32v(3.0), f32v(-0.3)),
        C("saxpy_gpu", "saxpy_gpu", f32v(2.0), f32(6), f32(6)),
        C("saxpy_gpu_strided", "saxpy_gpu", f32v(-1.5), every_other(f32(3)), f32(3)),
        C("saxpy_gpu_mismatch", "saxpy_gpu", f32v(2.0), f32(4), f32(6)),
        C("scale_rows", "scale_rows", f64(3, 4), f64(3)),
        C("scale_rows_fortran", "scale_rows", fortran(f64(2, 3)), arr([2.0, -0.5], np.float64)),
        C("sumsq", "sumsq", f64(10)),
        C("clip_count", "clip_count", f64(12), -5.0, 5.0),
    ]


@program("conv")
def _conv():
    return [
        C("convolve_valid", "convolve_valid", f64(8), arr([0.25, 0.5, 0.25], np.float64), zeros(6, np.float64)),
        C("convolve_valid_asym", "convolve_valid", arr([1.0, 2.0, 3.0, 4.0], np.float64), arr([1.0, -1.0], np.float64), zeros(3, np.float64)),
        C("convolve_valid_strided", "convolve_valid", every_other(f64(6)), reversed_view(f64(2)), zeros(5, np.float64)),
        C("moving_average_3", "moving_average", f64(7), 3, zeros(7, np.float64)),
        C("moving_average_1", "moving_average", f64(3), 1, zeros(3, np.float64)),
        C("box_blur", "box_blur", ints(np.int32, -100, 100, 4, 5), zeros((4, 5), np.float64)),
        C("box_blur_1x1", "box_blur", arr([[7]], np.int32), zeros((1, 1), np.float64)),
        C("box_blur_transposed", "box_blur", transposed(ints(np.int32, 0, 9, 3, 2)), np.zeros((3, 2), np.float64, order="F")),
        C("blur_rows32", "blur_rows32", f32(3, 5), zeros((3, 5), np.float32)),
        C("blur_rows32_one_col", "blur_rows32", f32(2, 1), zeros((2, 1), np.float32)),
    ]


@program("widening")
def _widening():
    return [
        C("int_then_float_0", "int_then_float", 0),
        C("int_then_float_5", "int_then_float", 5),
        C("int_then_float_100", "int_then_float", 100),
        C("halves_0", "halves", 0),
        C("halves_3", "halves", 3),
        C("halves_1100", "halves", 1100),
        C("bool_then_int_tt", "bool_then_int", True, True),
        C("bool_then_int_ft", "bool_then_int", False, True),
        C("float_then_complex", "float_then_complex", 2.5),
        C("annotated_0", "annotated", 0),
        C("annotated_7", "annotated", 7),
        C("annotated32", "annotated32", f32(5)),
        C("annotated32_all_low", "annotated32", arr([-5.0, -3.0], np.float32)),
        C("literal_keeps_f32", "literal_keeps_f32", f32v(0.1)),
        C("literal_keeps_f32_big", "literal_keeps_f32", f32v(1e38)),
        C("literal_keeps_i32", "literal_keeps_i32", -1000),
        C("mixed_promotion", "mixed_promotion", 3, f32v(0.1)),
        C("mixed_promotion_big", "mixed_promotion", 2147483647, f32v(1.5)),
        C("int32_plus_int64", "int32_plus_int64", -2147483648, 2**40),
        C("f32_plus_f64", "f32_plus_f64", f32v(0.1), 0.2),
        C("power_int_3_4", "power_int", 3, 4),
        # Only exponents where one more squaring than needed still fits:
        # how `**` squares is the implementation's business.
        C("power_int_-2_31", "power_int", -2, 31),
        C("power_int_0_0", "power_int", 0, 0),
        C("power_int_7_0", "power_int", 7, 0),
        C("power_float_2_0.5", "power_float", 2.0, 0.5, tol="ulps=4"),
        C("power_float_neg_int", "power_float", -2.0, 3.0, tol="ulps=4"),
        C("power_float_1_nan", "power_float", 1.0, math.nan, tol="ulps=4"),
        C("power_f32", "power_f32", f32v(1.1), tol="ulps=4"),
        C("int_pow_loop_3_13", "int_pow_loop", 3, 13),
        C("int_pow_loop_-5_7", "int_pow_loop", -5, 7),
        C("int_pow_loop_2_0", "int_pow_loop", 2, 0),
        C("int_pow_loop_10_9", "int_pow_loop", 10, 9),
    ]


@program("newton")
def _newton():
    return [
        C("newton_sqrt_2", "newton_sqrt", 2.0),
        C("newton_sqrt_1e6", "newton_sqrt", 1e6),
        C("newton_sqrt_small", "newton_sqrt", 0.0625),
        C("newton_cbrt_27", "newton_cbrt", 27.0),
        C("newton_cbrt_2", "newton_cbrt", 2.0),
        C("newton_cbrt_small", "newton_cbrt", 0.001),
        C("bisect_cubic", "bisect_cubic", 1.0, 2.0),
        C("bisect_cubic_wide", "bisect_cubic", 0.0, 10.0),
        C("cos_fixed_point", "cos_fixed_point", f32v(1.0), 50),
        C("cos_fixed_point_0", "cos_fixed_point", f32v(0.5), 0),
        C("iterations_to_converge_2", "iterations_to_converge", 2.0),
        C("iterations_to_converge_1e10", "iterations_to_converge", 1e10),
        C("iterations_to_converge_1", "iterations_to_converge", 1.0),
    ]


@program("static_shapes")
def _static_shapes():
    return [
        C("det2", "det2", arr([[3.0, 8.0], [4.0, 6.0]], np.float64)),
        C("det3", "det3", arr([[6.0, 1.0, 1.0], [4.0, -2.0, 5.0], [2.0, 8.0, 7.0]], np.float64)),
        C("det3_random", "det3", f64(3, 3)),
        C("det3_singular", "det3", arr([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], np.float64)),
        C("matvec3", "matvec3", f64(3, 3), f64(3), zeros(3, np.float64)),
        C("rotate2_quarter", "rotate2", arr([1.0, 0.0], np.float64), math.pi / 2, zeros(2, np.float64), tol="ulps=4"),
        C("rotate2", "rotate2", arr([0.6, -0.8], np.float64), 0.3, zeros(2, np.float64), tol="ulps=4"),
        C("checksum4", "checksum4", arr([1, 2, 3, 4], np.int32)),
        C("checksum4_extremes", "checksum4", arr([-2147483648, 2147483647, -1, 2147483647], np.int32)),
        C("trace3_f", "trace3_f", fortran(f64(3, 3))),
        C("trace3_f_c_order", "trace3_f", f64(4, 4)),
        C("ndims", "ndims", f64(2, 2), f64(3)),
    ]


@program("histogram")
def _histogram():
    x = f64(40)
    return [
        C("histogram", "histogram", x, -10.0, 10.0, zeros(5, np.int64)),
        C("histogram_clipped", "histogram", x, -5.0, 5.0, zeros(4, np.int64)),
        C("histogram_one_bin", "histogram", f64(3), 0.0, 1.0, zeros(1, np.int64)),
        C("histogram_strided_counts", "histogram", f64(10), -10.0, 10.0, every_other(zeros(3, np.int64))),
        C("cumulative", "cumulative", arr([1, 0, 3, 4], np.int64), zeros(4, np.float64)),
        C("cumulative_strided", "cumulative", every_other(arr([5, 5, 10], np.int64)), zeros(3, np.float64)),
        C("mode_bin", "mode_bin", arr([1, 7, 3, 7], np.int64)),
        C("mode_bin_one", "mode_bin", arr([0], np.int64)),
        C("bin_of32_mid", "bin_of32", f32v(2.6), 0.0, f32v(0.5), 10),
        C("bin_of32_low", "bin_of32", f32v(-3.0), 0.0, f32v(0.5), 10),
        C("bin_of32_high", "bin_of32", f32v(30.0), 0.0, f32v(0.5), 10),
        C("bin_of32_inexact", "bin_of32", f32v(0.3), f32v(0.1), f32v(0.1), 10),
    ]


@program("ufuncs")
def _ufuncs():
    z = (f64(2, 3) + 1j * f64(2, 3)).astype(np.complex128)
    return [
        C("clip", "clip", f64(2, 4), -2.0, 2.0),
        C("clip_broadcast_bounds", "clip", f64(5), f64(3, 1, scale=1.0), 5.0),
        C("clip_nan", "clip", arr([math.nan, 1.0], np.float64), 0.0, 0.5),
        C("imadd", "imadd", ints(np.int64, -1000, 1000, 3, 1), ints(np.int64, -1000, 1000, 4), 7),
        C("in_unit_disk", "in_unit_disk", f32(6, scale=1.5), f32(6, scale=1.5)),
        C("in_unit_disk_grid", "in_unit_disk", arr([[0.0], [0.6], [1.0]], np.float32), arr([0.0, 0.8, 0.1], np.float32)),
        C("csquare", "csquare", z),
        C("csquare_transposed", "csquare", transposed(z)),
        C("gcd16", "gcd16", ints(np.int16, 0, 30000, 6), arr([12], np.int16)),
        C("gcd16_table", "gcd16", arr([[12], [18], [0]], np.int16), arr([8, 27, 0], np.int16)),
        C("normalize", "normalize", f64(3, 4), zeros((3, 4), np.float64)),
        C("normalize_strided_out", "normalize", f64(2, 3), zeros((2, 6), np.float64)[:, ::2]),
        C("sqdist_pairs", "sqdist", f64(3, 1, 2), f64(4, 2)),
        C("sqdist_fortran", "sqdist", fortran(f64(4, 3)), f64(3)),
    ]


@program("boundary")
def _boundary():
    return [
        C("fill_linspace", "fill_linspace", 0.0, 1.0, zeros(5, np.float64)),
        C("fill_linspace_one", "fill_linspace", 2.0, 3.0, zeros(1, np.float64)),
        C("fill_linspace_strided", "fill_linspace", -1.0, 1.0, every_other(zeros(3, np.float64))),
        C("count_between", "count_between", f64(20), -5.0, 5.0),
    ]


@program("numpy_scalars")
def _numpy_scalars():
    T = "ulps=4"
    cases = [C(f"gaussian_{x}", "gaussian", x, 0.5, 1.5, tol=T) for x in (0.0, 0.5, -2.25)]
    # The exact ones: sqrt, rint, floor, ceil, trunc, fabs, abs, absolute,
    # negative, square, sign.
    exact = {0, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30}
    for k in range(31):
        xs = (0.5, 0.25) if k in (12, 13, 20) else (2.5, 1.75) if k == 19 else (2.5, -0.75)
        if k in (5, 6, 7, 0):
            xs = (2.5, 0.75)
        if k in (21, 22, 23, 24, 26, 28, 30):
            xs = (2.5, -0.5, -0.0, 3.5, -7.25)
        if k == 30:
            xs += (float("nan"),)
        for x in xs:
            cases.append(C(f"f64_fn_{k}_{x}", "f64_fn", k, x, tol=None if k in exact else T))
    for k in range(6):
        for x in (f32v(0.7), f32v(3.3)):
            cases.append(C(f"f32_fn_{k}_{x}", "f32_fn", k, x, tol=None if k in (0, 3, 4, 5) else T))
    nan = float("nan")
    for k in range(9):
        for x, y in ((1.5, -2.0), (-3.25, 0.5), (nan, 1.0), (2.0, nan), (7.5, 2.0)):
            if k in (0, 1, 4) and (x != x or y != y):
                continue
            cases.append(C(f"f64_fn2_{k}_{x}_{y}", "f64_fn2", k, x, y, tol=T if k in (0, 1, 4) else None))
    for k in range(5):
        for n in (1, 4, 10):
            cases.append(C(f"int_to_float_{k}_{n}", "int_to_float", k, n, tol=None if k in (0, 2) else T))
    cases += [C(f"exp_i8_{n}", "exp_i8", n, tol="ulps=1") for n in (0, 1, 3, -2)]
    cases += [C(f"sqrt_i16_{n}", "sqrt_i16", n) for n in (4, 2, 1000)]
    cases += [C(f"sqrt_u32_{n}", "sqrt_u32", n) for n in (9, 2, 4000000000)]
    cases += [C(f"hypot_mixed_{a}_{b}", "hypot_mixed", a, b) for a, b in ((3, 4.0), (-5, f32v(1.1)))]
    for k in range(12):
        for n in (-7, 0, 5):
            cases.append(C(f"int_fn_{k}_{n}", "int_fn", k, n))
    cases += [C(f"sign_u8_{n}", "sign_u8", n) for n in (0, 1, 200)]
    for k in range(4):
        for a, b in ((True, False), (True, True), (False, False)):
            cases.append(C(f"bool_fn_{k}_{a}_{b}", "bool_fn", k, a, b))
    cases += [C(f"square_bool_{a}", "square_bool", a) for a in (True, False)]
    cases += [C(f"magnitude_{z}", "magnitude", z, tol=T) for z in (3 + 4j, -1.5 - 0.5j)]
    for k in range(3):
        for x in (1.0, nan, float("inf"), float("-inf"), -0.0):
            cases.append(C(f"classify_{k}_{x}", "classify", k, x))
    cases += [C(f"int_is_finite_{n}", "int_is_finite", n) for n in (0, -3)]
    cases += [C(f"strong_sqrt_{x}", "strong_sqrt", x) for x in (f32v(1.5), f32v(-0.1))]
    cases += [C(f"weak_power_{x}", "weak_power", x) for x in (f32v(1.5), f32v(0.25))]
    cases.append(C("python_ints", "python_ints"))
    cases += [C(f"constants_{x}", "constants", x) for x in (1.0, float("inf"), nan)]
    cases += [C(f"circle_{r}", "circle", r) for r in (f32v(1.0), f32v(2.5))]
    cases += [C(f"int_limits_{k}", "int_limits", k) for k in range(5)]
    cases.append(C("uint64_max", "uint64_max"))
    cases += [C(f"clamp_to_int16_{x}", "clamp_to_int16", x) for x in (-10**6, -5, 40000)]
    cases += [C(f"float64_limits_{k}", "float64_limits", k) for k in range(9)]
    cases += [C(f"float32_limits_{k}", "float32_limits", k) for k in range(6)]
    cases += [C(f"float16_limits_{k}", "float16_limits", k) for k in range(4)]
    cases += [C(f"float_info_ints_{k}", "float_info_ints", k) for k in range(7)]
    cases += [C(f"nearly_equal_{a}_{b}", "nearly_equal", a, b)
              for a, b in ((f32v(1.0), f32v(1.0000001)), (f32v(1.0), f32v(1.001)), (f32v(0.0), f32v(0.0)))]
    for k in range(5):
        cases += [C(f"rounded_{k}_{i}", "rounded", x, k) for i, x in
                  enumerate((2.5, -2.5, 1.005, 2.675, 0.125, 1234.5, -0.0, float("nan"), float("inf"), 1e200, 5e-324))]
    cases += [C(f"rounded_f32_{i}", "rounded_f32", f32v(x)) for i, x in enumerate((2.25, 0.35, -1.5, 3.75e30))]
    cases += [C(f"rounded_ints_{n}_{b}", "rounded_ints", np.int32(n), b) for n in (0, 7, -3) for b in (True, False)]
    cases += [C(f"rounded_bool_{b}", "rounded_bool", b) for b in (True, False)]
    cases += [C(f"bo_fold_{i}", "bo_fold", x) for i, x in enumerate((3.0, 1.5, 0.75, 10.0, 1.0 / 3.0))]
    cases += [C(f"angles_{i}", "angles", x, np.int32(n))
              for i, (x, n) in enumerate(((0.0, 0), (180.0, -90), (-1e300, 7), (float("nan"), 1), (33.3, 360)))]
    cases += [C(f"angles_f32_{i}", "angles_f32", f32v(x)) for i, x in enumerate((1.0, -45.5, 1e30, 1e-40))]
    cases += [C(f"angles_f16_{i}_{b}", "angles_f16", np.float16(x), b)
              for i, x in enumerate((1.0, 90.0, 65504.0)) for b in (True, False)]
    cases += [C("angles_of_array", "angles_of_array", np.arange(-720.0, 721.0, 15.0, dtype=np.float32)[::-3])]
    cases += [C(f"scalar_types_{k}", "scalar_types", n, x)
              for k, (n, x) in enumerate([(3, 0.1), (0, -2.5), (-7, 1e30)])]
    cases += [C(f"parameter_types_{k}", "parameter_types", np.float32(z), np.int16(n))
              for k, (z, n) in enumerate([(0.5, 3), (-2.25, -32768), (1e19, 7), (float("nan"), 0)])]
    return cases


@program("bound_values")
def _bound_values():
    return [
        # lgamma and sqrt of libm: within a few ulps on every backend.
        C("bound", "bound", 1.5, 4, 1, tol="ulps=4"),
        C("bound_zero", "bound", 0.0, 0, 0, tol="ulps=4"),
        C("bound_negative", "bound", -2.25, 7, 3, tol="ulps=4"),
    ]


@program("lists")
def _lists():
    return [
        C("log_thin", "log_thin", settled(np.geomspace(1.0, 1000.0, 50)), 0.1),
        C("log_thin_one", "log_thin", arr([5.0], np.float64), 0.1),
        C("log_thin_dense", "log_thin", every_other(settled(np.geomspace(1.0, 10.0, 40))), 0.01),
        C("evens_9", "evens", 9),
        C("evens_1", "evens", 1),
        C("evens_40", "evens", 40),
        C("mixed_7", "mixed", 7),
        C("mixed_0", "mixed", 0),
        C("rebuilt", "rebuilt", arr([1.5, -2.0, 3.25, 0.5], np.float32), 2),
        C("rebuilt_none", "rebuilt", arr([-1.0], np.float32), 0),
        C("past_end_last", "past_end", 3, -1),
        C("past_end_in", "past_end", 30, 31),
        C("past_end_out", "past_end", 30, 32),
        C("past_end_negative", "past_end", 0, -3),
        C("squares_5", "squares", 5),
        C("squares_0", "squares", 0),
        C("stepped", "stepped", 2, 11, 2),
        C("stepped_down", "stepped", 10, -4, -3),
        C("stepped_empty", "stepped", 5, 0, 1),
        C("positives", "positives", arr([1.5, -2.0, 0.0, 3.25, 7.0], np.float64)),
        C("positives_none", "positives", arr([-1.0, -0.5], np.float64)),
        C("positives_reversed", "positives", reversed_view(arr([1.5, -2.0, 4.0], np.float64))),
        C("none_kept", "none_kept", 4),
        C("counts", "counts", arr([0.5, 2.0, 0.25, 0.75], np.float64), arr([3, 4, 5, 6], np.int64)),
        C("counts_one", "counts", arr([2.0, 0.0], np.float64), arr([9, -4], np.int64)),
    ]


@program("parameter_versions")
def _parameter_versions():
    return [
        C("log_bins", "log_bins", 1, 1000, 1.5, 7),
        C("log_bins_fine", "log_bins", 3, 77, 1.01, -2),
        C("column_totals", "column_totals", f64(3, 4)),
        C("column_totals_fortran", "column_totals", fortran(f64(2, 5))),
        C("widened", "widened", arr([7, -3, 2147483647], np.int32)),
        C("widened_strided", "widened", every_other(arr([1, 2, 3, 4, 5], np.int32))),
        C("halved", "halved", f32v(1.25), 3),
        C("halved_none", "halved", f32v(-0.1), 0),
        C("reads_before", "reads_before", arr([1.5, 2.0, -3.0], np.float64)),
        C("reads_before_reversed", "reads_before", reversed_view(arr([1.5, 2.0, -3.0, 4.0], np.float64))),
        C("log_bins_branch_ratio", "log_bins_branch", 1, 1000, 1.5, 0),
        C("log_bins_branch_both", "log_bins_branch", 1, 1000, 1.5, 4),
        C("log_bins_branch_n", "log_bins_branch", 1, 1000, 0.0, 9),
        C("log_bins_branch_none", "log_bins_branch", 1, 1000, 0.0, 0),
        C("halvings", "halvings", -7, 3),
        C("unpacked", "unpacked", arr([1.5, -2.0, 4.0], np.float64), 4),
        C("halvings_once", "halvings", 2147483647, 1),
    ]


@program("unpacking")
def _unpacking():
    return [
        C("swap", "swap", 3, 4),
        C("fib_0", "fib", 0),
        C("fib_10", "fib", 10),
        C("fib_90", "fib", 90),
        C("mixed", "mixed", 3),
        C("rotate", "rotate", 1, 2, 3),
        C("typed", "typed", 5),
        C("reverse_5", "reverse", arr([1, 2, 3, 4, 5], np.int64)),
        C("reverse_4_strided", "reverse", every_other(arr([1, 2, 3, 4], np.int64))),
        C("reverse_empty", "reverse", zeros(0, np.int64)),
        C("bubblesort", "bubblesort", f64(9)),
        C("bubblesort_strided", "bubblesort", every_other(f64(6))),
        C("exchange", "exchange", arr([10, 20, 30], np.int64), 7),
        C("total", "total", f64(3, 4)),
        C("total_fortran", "total", fortran(f64(2, 5))),
        C("total_empty", "total", np.zeros((0, 3))),
        C("volume", "volume", np.zeros((2, 3, 4))),
        C("length", "length", f64(7)),
        C("swap_arrays", "swap_arrays", 3),
        C("swap_arrays_0", "swap_arrays", 0),
        C("swap_params", "swap_params", arr([1.0, 2.0], np.float64), arr([3.0, 4.0, 5.0], np.float64)),
        C("swap_params_strided", "swap_params", every_other(f64(6)), arr([3.0, 4.0], np.float64)),
    ]


@program("tuple_values")
def _tuple_values():
    return [
        C("shape_value", "shape_value", f64(3, 5)),
        C("shape_value_fortran_empty", "shape_value", fortran(np.zeros((0, 4)))),
        C("extent_0", "extent", f64(3, 5), 0),
        C("extent_1", "extent", f64(3, 5), 1),
        C("extent_minus_2", "extent", f64(3, 5), -2),
        C("extent_2_panics", "extent", f64(3, 5), 2),
        C("extent_minus_3_panics", "extent", f64(3, 5), -3),
        C("mixed_pair", "mixed_pair", -7, 0.25),
        C("swap_tuple", "swap_tuple", 3, 4),
        C("pick_0", "pick", 0),
        C("pick_2", "pick", 2),
        C("pick_minus_1", "pick", -1),
        C("pick_minus_3", "pick", -3),
        C("pick_3_panics", "pick", 3),
        C("pick_minus_4_panics", "pick", -4),
        C("pick_joined_rebound", "pick_joined", 4, 0),
        C("pick_joined_kept", "pick_joined", -4, 0),
        C("pick_joined_from_end", "pick_joined", 4, -2),
        C("divmod_positive", "divmod_value", 17, 5),
        C("divmod_negative_dividend", "divmod_value", -17, 5),
        C("divmod_negative_divisor", "divmod_value", 17, -5),
        C("reductions", "reductions", 5, -3, 9),
        C("reductions_equal", "reductions", 2, 2, 2),
        C("float_sum", "float_sum", 0.1, 0.2),
        C("membership_in", "membership", 2),
        C("membership_odd", "membership", 3),
        C("membership_neither", "membership", 4),
        C("membership_out", "membership", 7),
        C("same_shape_yes", "same_shape", f64(2, 3), fortran(f64(2, 3))),
        C("same_shape_transposed", "same_shape", f64(2, 3), transposed(f64(2, 3))),
        C("tuple_equality_equal", "tuple_equality", 1, 2),
        C("tuple_equality_differs", "tuple_equality", 2, 1),
        C("ordered_sorted", "ordered", 3, 8),
        C("ordered_reversed", "ordered", 8, 3),
        C("ordered_widened_int_first", "ordered_widened", 2, 3.5),
        C("ordered_widened_float_first", "ordered_widened", 5, 3.5),
        C("sort_two_swaps", "sort_two", arr([9, 4], np.int64)),
        C("sort_two_keeps", "sort_two", arr([4, 9], np.int64)),
        C("sort_two_strided", "sort_two", every_other(arr([7, 2], np.int64))),
        C("sort_two_too_many", "sort_two", arr([1, 2, 3], np.int64)),
        C("sort_two_too_few", "sort_two", arr([1], np.int64)),
        C("unpack_three", "unpack_three", arr([1.0, 2.0, 3.0], np.float64)),
        C("unpack_three_reversed", "unpack_three", reversed_view(arr([1.0, 2.0, 3.0], np.float64))),
        C("unpack_three_too_few", "unpack_three", arr([1.0, 2.0], np.float64)),
        C("unpack_three_empty", "unpack_three", arr([], np.float64)),
        C("unpack_three_too_many", "unpack_three", arr([1.0, 2.0, 3.0, 4.0], np.float64)),
        C("loop_constants_skip_2", "loop_constants", 2),
        C("loop_constants_break", "loop_constants", 1),
        C("loop_constants_break_first", "loop_constants", 0),
        C("loop_mixed", "loop_mixed", 3, 0.5),
        C("arrays_tuple", "arrays_tuple", f64(4), reversed_view(f64(5)), f64(3)),
        C("write_through", "write_through", f64(3), every_other(f64(4))),
        C("shape_loop", "shape_loop", np.zeros((2, 3, 4))),
        C("pairs", "pairs", 5),
    ] + [
        C(f"tuple_order_{a}_{b}_{c}_{d}", "tuple_order", a, b, c, d)
        for a, b, c, d in ((1, 2, 1, 3), (1, 2, 1, 2), (1, 3, 1, 2), (0, 9, 1, -9), (2, -9, 1, 9), (-1, 0, -1, 0))
    ] + [
        C("order_lengths", "order_lengths", 3, 2.5),
        C("order_lengths_below", "order_lengths", 3, 1.0),
        C("order_lengths_integral", "order_lengths", -4, -4.0),
        C("order_nan_left", "order_nan", math.nan, 1.0),
        C("order_nan_both", "order_nan", math.nan, math.nan),
        C("order_nan_none", "order_nan", 1.0, 1.0),
        C("order_nested_yes", "order_nested", 1, 2),
        C("order_nested_equal", "order_nested", 2, 2),
        C("order_nested_no", "order_nested", 3, 2),
        C("tuple_slices", "tuple_slices", 1, 2, 3),
        C("tuple_slices_negative", "tuple_slices", -7, 5, 9),
        C("slice_loop", "slice_loop", 3, 0.5),
        C("slice_loop_equal", "slice_loop", -2, -2.0),
        C("tuple_min_max", "tuple_min_max", 1, 2, 0.25),
        C("tuple_min_max_tie", "tuple_min_max", 2, 2, 0.5),
        C("tuple_min_max_first_wins", "tuple_min_max", 3, -1, 2.0),
        C("joined_shape", "joined_shape", arr([[[1.0, 2.0], [3.0, 4.0], [5.0, 6.5]]], np.float64)),
        C("joined_shape_empty", "joined_shape", np.zeros((0, 2, 4))),
        C("shape_of_vector", "shape_of_vector", arr([0.5, -1.0, 2.0, 3.0], np.float64)),
    ]


@program("float_to_int")
def _float_to_int():
    inf, nan = math.inf, math.nan
    # Around Int64's ends: the largest Float64 below 2**63 fits, 2**63
    # does not; -2**63 fits, the next Float64 below it does not.
    edges = (2.0**63 - 1024.0, 2.0**63, -(2.0**63), -(2.0**63) - 2048.0)
    values = (2.7, -2.7, 0.5, 1.5, 2.5, -0.5, -1.5, 0.49999999999999994, -0.0, 1e18) + edges + (1e300, -1e300, nan, inf, -inf)
    cases = []
    for k, x in enumerate(values):
        cases.append(C(f"to_int_{k}_{x}", "to_int", x))
        cases.append(C(f"rounded_{k}_{x}", "rounded", x))
        for f in range(5):
            cases.append(C(f"rounding_{f}_{k}_{x}", "rounding", f, x))
    for x in (f32v(2.5), f32v(-3.75), f32v(3.0e38), f32v(-9.3e18), inf, nan):
        cases.append(C(f"to_int_f32_{x}", "to_int_f32", x))
    cases += [
        C("rounded_narrow", "rounded_narrow", f32v(2.5), np.float16(3.5)),
        C("rounded_narrow_negative", "rounded_narrow", f32v(-7.5), np.float16(-0.5)),
        C("rounded_narrow_big", "rounded_narrow", f32v(1e20), np.float16(1.0)),
        C("rounded_narrow_inf", "rounded_narrow", f32v(1.0), np.float16(inf)),
        C("rounded_ints", "rounded_ints", -17, 3, True),
        C("rounded_ints_big", "rounded_ints", 5, 2**63 - 1, False),
        C("rounded_ints_beyond", "rounded_ints", 5, 2**63, False),
        C("bucket", "bucket", 7.25, -1.0, 0.5),
        C("bucket_negative", "bucket", -3.0, 0.0, 0.25),
        C("bucket_beyond", "bucket", 1e10, 0.0, 1e-10),
        C("bucket_nan", "bucket", nan, 0.0, 1.0),
        C("bucket_inf", "bucket", 1.0, 0.0, 5e-324, allow_over=True),
        C("scaled_sum", "scaled_sum", 2.5, 10),
        C("scaled_sum_beyond", "scaled_sum", 3e18, 5),
    ]
    return cases


@program("elementwise")
def _elementwise():
    nan = math.nan
    return [
        C("axpy", "axpy", f64(6), f64(6)),
        C("axpy_strided", "axpy", reversed_view(f64(5)), f64(5)),
        C("axpy_empty", "axpy", arr([], np.float64), arr([], np.float64)),
        C("axpy_scalar_like", "axpy", f64(1), f64(4)),
        C("ops", "ops", f64(5), arr([1.5, -2.0, 3.25, 0.5, -7.0], np.float64), tol="rel=1e-13"),
        C("int_ops", "int_ops", ints(np.int64, -1000, 1000, 6), ints(np.int64, -1000, 1000, 6)),
        C("mixed", "mixed", ints(np.int32, -2**31, 2**31 - 1, 4), f32(4)),
        C("small_ints", "small_ints", arr([-64, -1, 0, 5, 63], np.int8)),
        C("true_div", "true_div", arr([7, -7, 1, 0], np.int32), arr([2, 2, 3, 5], np.int32)),
        C("rows_plus_row", "rows_plus_row", f64(3, 4), f64(4)),
        C("rows_plus_row_fortran", "rows_plus_row", fortran(f64(3, 2)), f64(2)),
        C("rows_plus_one", "rows_plus_row", f64(2, 3), f64(1)),
        C("rows_mismatch", "rows_plus_row", f64(2, 3), f64(4)),
        C("outer", "outer", f64(3, 1), f64(1, 4)),
        C("outer_transposed", "outer", transposed(f64(3, 1)), f64(1, 2)),
        C("less", "less", arr([1.0, nan, -0.0, 2.0], np.float64), arr([2.0, 1.0, 0.0, nan], np.float64)),
        C("compares", "compares", arr([1, 5, 3, 5, 9, -2], np.int64), 5),
        C("bool_ops", "bool_ops", arr([True, True, False, False], np.bool_), arr([True, False, True, False], np.bool_)),
        C("ufuncs", "ufuncs", f64(6), tol="ulps=4"),
        C("ufunc_f32", "ufunc_f32", arr([0.0, 2.0, 0.25, 9.0], np.float32)),
        C("int_abs", "int_abs", arr([-5, 0, 7, -2**31 + 1], np.int32)),
        C("min_max", "min_max", arr([1.0, nan, -3.0, 2.0], np.float64), arr([0.5, 1.0, nan, 2.0], np.float64)),
        C("where", "where", f64(6), f64(6)),
        C("where_ints", "where_ints", arr([3, -1, 0, 8], np.int32)),
        C("clip", "clip", arr([-3.0, 0.5, 2.0, nan, 1.5], np.float64)),
        C("clip_int", "clip_int", ints(np.int32, -10, 10, 3, 4), arr([1, 5, 9, 0], np.int32)),
        C("in_place", "in_place", f64(3, 4), f64(4)),
        C("in_place_one", "in_place", f64(2, 3), f64(1)),
        C("in_place_int", "in_place_int", 6),
        C("in_place_int_empty", "in_place_int", 0),
        C("bound_and_reduced", "bound_and_reduced", f64(7), f64(7), tol="rel=1e-13"),
        C("passed_on", "passed_on", f64(5), f64(5), tol="rel=1e-13"),
        C("mismatch", "mismatch", f64(3), f64(4)),
        C("mismatch_empty", "mismatch", f64(0), f64(2)),
        C("empty_with_one", "mismatch", f64(0), f64(1)),
        C("mismatch_2d", "mismatch_2d", f64(2, 3), f64(4, 1), f64(3)),
        C("mismatch_2d_inner", "mismatch_2d", f64(2, 3), f64(2, 2), f64(3)),
        C("in_place_mismatch", "in_place_mismatch", f64(1), f64(3)),
        C("in_place_stretch_ok", "in_place_mismatch", f64(3), f64(1)),
    ]


@program("slice_arithmetic")
def _slice_arithmetic():
    t = "rel=1e-13"
    series = f64(12)
    q = f64(4)
    ramp = arr(list(range(1, 8)), np.int64)
    return [
        C("head_energy", "head_energy", f64(9), 5, tol=t),
        C("head_energy_strided", "head_energy", every_other(f64(6)), 4, tol=t),
        C("head_energy_reversed", "head_energy", reversed_view(f64(7)), 7, tol=t),
        C("head_energy_past_end", "head_energy", f64(3), 10, tol=t),
        C("head_energy_empty", "head_energy", f64(5), 0),
        C("p_norm_profile", "p_norm_profile", q, series, 2.0, zeros(9, np.float64), tol="ulps=16"),
        C("p_norm_profile_odd", "p_norm_profile", q, every_other(series), 3.0, zeros(9, np.float64), tol="ulps=16"),
        C("p_norm_profile_reversed", "p_norm_profile", reversed_view(q), series, 1.5, zeros(9, np.float64), tol="ulps=16"),
        C("window_energies", "window_energies", series, 5, zeros(8, np.float64), tol=t),
        C("window_energies_strided", "window_energies", every_other(series), 3, zeros(10, np.float64), tol=t),
        C("byte_total", "byte_total", arr([60, 50, 40, 60, -3, 55, 60, 60], np.int8)),
        C("byte_total_odd", "byte_total", arr([60, 50, 40], np.int8)),
        C("single_total", "single_total", arr([1.5, 0.25, -3.0, 1e7, 7.0], np.float32)),
        C("cubes", "cubes", f64(6), tol="ulps=4"),
        C("cubes_strided", "cubes", every_other(f64(5)), tol="ulps=4"),
        C("cubes_empty", "cubes", zeros(0, np.float64)),
        C("row_twice", "row_twice", f64(3, 4), 1),
        C("row_twice_negative", "row_twice", fortran(f64(3, 4)), -1),
        C("row_twice_transposed", "row_twice", transposed(f64(4, 3)), 2),
        C("row_twice_out_of_range", "row_twice", f64(3, 4), 3),
        C("column_gap", "column_gap", f64(5, 3), f64(5, 2), tol=t),
        C("column_gap_fortran", "column_gap", fortran(f64(4, 3)), transposed(f64(2, 4)), tol=t),
        C("column_gap_mismatch", "column_gap", f64(4, 3), f64(3, 3)),
        C("plus_transpose", "plus_transpose", ints(np.int64, -50, 50, 3, 3)),
        C("plus_transpose_fortran", "plus_transpose", fortran(ints(np.int64, -50, 50, 4, 4))),
        C("plus_transpose_not_square", "plus_transpose", ints(np.int64, -50, 50, 2, 3)),
        C("column_times_row", "column_times_row", ints(np.int32, -99, 99, 3, 4)),
        C("column_times_row_transposed", "column_times_row", transposed(ints(np.int32, -99, 99, 2, 3))),
        C("column_times_row_empty", "column_times_row", np.zeros((0, 3), np.int32)),
        C("diffs", "diffs", f64(6)),
        C("diffs_reversed", "diffs", reversed_view(f64(5))),
        C("diffs_one", "diffs", f64(1)),
        C("diffs_empty", "diffs", zeros(0, np.float64)),
        C("stepped_mix", "stepped_mix", arr(list(range(10)), np.int64)),
        C("stepped_mix_strided", "stepped_mix", every_other(arr(list(range(8)), np.int64))),
        C("stepped_mix_odd", "stepped_mix", arr(list(range(7)), np.int64)),
        C("mismatch_ok", "mismatch", f64(4), 1),
        C("mismatch", "mismatch", f64(4), 2),
        C("mismatch_empty", "mismatch", f64(0), 0),
        C("bump_tail", "bump_tail", f64(5)),
        C("bump_tail_reversed", "bump_tail", reversed_view(f64(4))),
        C("bump_tail_empty", "bump_tail", zeros(0, np.float64)),
        C("scale_column", "scale_column", f64(3, 4), 2),
        C("scale_column_fortran", "scale_column", fortran(f64(3, 4)), -1),
        C("scale_column_transposed", "scale_column", transposed(f64(4, 3)), 0),
        C("scale_column_out_of_range", "scale_column", f64(3, 4), 4),
        C("sub_range", "sub_range", f64(7), 2, 5, f64(3)),
        C("sub_range_broadcast", "sub_range", f64(6), -4, 100, f64(1)),
        C("sub_range_empty", "sub_range", f64(6), 4, 2, f64(1)),
        C("sub_range_mismatch", "sub_range", f64(6), 1, 3, f64(3)),
        C("shifted_add", "shifted_add", ramp.copy()),
        C("shifted_add_strided", "shifted_add", every_other(ramp)),
        C("shifted_add_reversed", "shifted_add", reversed_view(ramp)),
        C("shifted_add_one", "shifted_add", arr([5], np.int64)),
        C("reversed_add", "reversed_add", ramp.copy()),
        C("reversed_add_strided", "reversed_add", every_other(arr(list(range(6)), np.int64))),
        C("local_view_add", "local_view_add", ramp.copy()),
        C("local_view_add_strided", "local_view_add", every_other(arr(list(range(5)), np.int64))),
        C("rows_minus_first", "rows_minus_first", f64(4, 3)),
        C("rows_minus_first_fortran", "rows_minus_first", fortran(f64(3, 2))),
        C("rows_minus_first_transposed", "rows_minus_first", transposed(f64(2, 3))),
        C("add_mismatch", "add_mismatch", f64(5), f64(3)),
        C("add_mismatch_output", "add_mismatch", f64(2), f64(3)),
        C("add_broadcast_one", "add_mismatch", f64(4), f64(1)),
        C("running_after_first", "running_after_first", zeros(5, np.float64), f64(4), tol=t),
        C("running_after_first_strided", "running_after_first", every_other(zeros(4, np.float64)), f64(3), tol=t),
        C("running_after_first_mismatch", "running_after_first", zeros(5, np.float64), f64(5)),
        C("rows_scaled", "rows_scaled", f64(3, 4), np.zeros((3, 4))),
        C("rows_scaled_fortran", "rows_scaled", fortran(f64(2, 3)), transposed(np.zeros((2, 3)))),
        C("rows_scaled_mismatch", "rows_scaled", f64(2, 3), np.zeros((2, 2))),
        C("rebound", "rebound", f64(6), tol=t),
        C("rebound_strided", "rebound", every_other(f64(4)), tol=t),
        C("rebound_in_loop", "rebound_in_loop", f64(6), 3),
        C("rebound_in_loop_none", "rebound_in_loop", reversed_view(f64(4)), 0),
        C("indices", "indices", 6),
        C("indices_empty", "indices", 0),
        C("aliases", "aliases", 5),
        C("total_1d", "total_1d", f64(6), tol=t),
        C("total_1d_reversed", "total_1d", reversed_view(f64(5)), tol=t),
        C("total_1d_empty", "total_1d", zeros(0, np.float64)),
        C("total_2d", "total_2d", ints(np.int64, -99, 99, 3, 4)),
        C("total_2d_fortran", "total_2d", fortran(ints(np.int64, -99, 99, 2, 5))),
        C("total_2d_empty", "total_2d", np.zeros((0, 3), np.int64)),
        C("col_sums_kept", "col_sums_kept", f64(3, 4), tol=t),
        C("col_sums_kept_transposed", "col_sums_kept", transposed(f64(4, 2)), tol=t),
        C("centred_rows", "centred_rows", f64(3, 5), tol=t),
        C("centred_rows_fortran", "centred_rows", fortran(f64(2, 4)), tol=t),
        C("all_kept", "all_kept", ints(np.int64, -99, 99, 3, 2)),
        C("all_kept_empty", "all_kept", np.zeros((2, 0), np.int64)),
    ]


@program("prange")
def _prange():
    ramp = arr([float(i % 17) - 8.0 for i in range(1000)], np.float64)
    return [
        C("sum_squares_0", "sum_squares", 0),
        C("sum_squares_1", "sum_squares", 1),
        C("sum_squares_1000", "sum_squares", 1000),
        C("sum_squares_100003", "sum_squares", 100003),
        C("fsum", "fsum", ramp),
        C("fsum_strided", "fsum", every_other(ramp)),
        C("fsum_empty", "fsum", zeros(0, np.float64)),
        C("halves", "halves", ramp, zeros(1000, np.float64)),
        C("halves_empty", "halves", zeros(0, np.float64), zeros(0, np.float64)),
        C("two_passes", "two_passes", ramp, zeros(1000, np.float64)),
        C("interior", "interior", np.arange(20.0).reshape(5, 4) * 0.75 - 3.0, np.zeros((5, 4))),
        C("interior_fortran", "interior", fortran(settled(np.arange(18.0).reshape(3, 6) ** 1.5)), np.zeros((3, 6))),
        C("two_passes_strided", "two_passes", every_other(ramp), zeros(500, np.float64)),
        C("diff", "diff", arr(list(range(300)), np.int64)),
        C("product_0", "product", 0),
        C("product_301", "product", 301),
        C("extremes", "extremes", ramp),
        C("extremes_one", "extremes", arr([2.5], np.float64)),
        C("imin", "imin", arr([5, -3, 9, -3, 7] * 40, np.int32)),
        C("csum", "csum", 500),
        C("stepped_up", "stepped", 0, 1000, 3),
        C("stepped_down", "stepped", 1000, -5, -7),
        C("stepped_empty", "stepped", 5, 5, 1),
        C("stepped_empty_down", "stepped", 0, 10, -1),
        C("stepped_one", "stepped", 4, 5, 1),
        C("squares", "squares", 200, zeros(200, np.int64)),
        C("rows", "rows", f64(37, 5), zeros(37, np.float64)),
        C("checked_ok", "checked", arr(list(range(500)), np.int64), 1),
        C("checked_panics", "checked", arr(list(range(500)), np.int64), 3),
        C("rows_no_rows", "rows", f64(0, 5), zeros(0, np.float64)),
        C("rows_one_row", "rows", f64(1, 5), zeros(1, np.float64)),
        C("rows_empty_rows", "rows", f64(4, 0), zeros(4, np.float64)),
        C("by_calls", "by_calls", f64(37, 5), zeros(37, np.float64)),
        C("by_calls_one", "by_calls", f64(1, 1), zeros(1, np.float64)),
        C("by_calls_none", "by_calls", f64(0, 3), zeros(0, np.float64)),
        C("nested_checked_ok", "nested_checked", arr(list(range(60)), np.int64), 10, 6),
        C("nested_checked_panics", "nested_checked", arr(list(range(60)), np.int64), 10, 7),
        C("stepped_down_short", "stepped", 10, -10, -3),
        C("up_by_three", "up_by_three", 0, 100000),
        C("up_by_three_odd", "up_by_three", -5, 24001),
        C("up_by_three_few", "up_by_three", 10, 200),
        C("up_by_three_empty", "up_by_three", 5, 5),
        C("down_by_seven", "down_by_seven", 100000, -3),
        C("down_by_seven_few", "down_by_seven", 0, -300),
        C("huge_steps", "huge_steps", 7 * 2**60),
        C("fails_at_ok", "fails_at", 20000, -1),
        C("fails_at", "fails_at", 50000, 20100),
        C("fails_at_first_block", "fails_at", 50000, 3),
    ]


@program("module_imports")
def _module_imports():
    p = arr([1.0, 2.0, 3.0], np.float64)
    q = arr([-2.0, 0.5, 4.0], np.float64)
    return [
        C("dot_twice", "dot_twice", p, q),
        C("dot_twice_random", "dot_twice", f64(3), f64(3)),
        C("norm_of_cross", "norm_of_cross", p, q),
        C("norm_of_cross_parallel", "norm_of_cross", p, arr([2.0, 4.0, 6.0], np.float64)),
        C("blended", "blended", 0.3, 2.0, 4),
        C("blended_clamped", "blended", -5.0, 1.0, 8),
        C("scaled", "scaled", 1.5),
        C("scaled_twice", "scaled_twice", -0.25),
        C("shadowed", "shadowed", 2.5, 3),
    ]


@program("generic_helpers")
def _generic_helpers():
    return [
        C("max_n_both", "max_n_both", arr([1.0, 4.0, 9.0, 16.0], np.float64), arr([2, 3, 5, 7], np.int64),
          arr([5.0, 0.5, 20.0, 3.0], np.float64), arr([4, 1, 8, 6], np.int64)),
        C("max_n_both_random", "max_n_both", np.sort(f64(6)), arr([-3, 0, 2, 9, 11, 40], np.int64), f64(5),
          arr([10, -7, 3, 50], np.int64)),
        C("sums", "sums", np.float32(1.25), np.int32(7), 2.5),
        C("sums_negative", "sums", np.float32(-3.1), np.int32(-40), -0.1),
        C("add_float32_int", "add_float32_int", np.float32(0.1)),
        C("scaled_sum", "scaled_sum", arr([0.1, 0.2, 0.3], np.float32), arr([1, 2, 3, 4], np.int64)),
        C("scaled_sum_random", "scaled_sum", f64(50).astype(np.float32), arr(list(range(-20, 21)), np.int64)),
        C("clamped", "clamped", arr([-2.0, -0.5, 0.25, 1.5, 3.0], np.float64), zeros(5, np.float64)),
        C("spread", "spread", arr([3.0, -1.5, 8.25], np.float64), arr([4, 9, -2, 7], np.int64)),
        C("spread_random", "spread", f64(20), arr([5, 5, 5], np.int64)),
        C("count_cells", "count_cells", zeros((3, 4), np.float64)),
        C("count_cells_empty", "count_cells", zeros((0, 4), np.float64)),
        C("total_of_input", "total_of_input", f64(10)),
        C("keyword_only", "keyword_only", 1.25, 7),
        C("factorials", "factorials", 10, np.int32(5)),
        C("factorials_small", "factorials", 0, np.int32(1)),
        C("factorials_bound", "factorials_bound", 12),
    ]


# ---------------------------------------------------------------------------
# Published reference values that the cases above must reproduce.

REFERENCES = {
    ("hashing", "fnv1a32_hello_world"): "ret UInt32 3582672807",  # 0xd58b3fa7
    ("hashing", "fnv1a32_a"): "ret UInt32 3826002220",  # 0xe40c292c
    ("hashing", "adler32_wikipedia"): "ret UInt32 300286872",  # 0x11e60398
    ("hashing", "xorshift32_marsaglia"): "ret UInt64 723471715",  # Marsaglia 2003
    ("montecarlo", "lcg_nth_park_miller"): "ret Int64 1043618065",  # Park & Miller 1988
    ("collatz", "steps_837799"): "ret Int64 524",
    ("fp_rounding", "harmonic16_5000"): "ret Float16 0x1.c580000000000p+2",  # 7.0859375
    ("primes", "nth_prime_100"): "ret Int64 541",
    ("primes", "prime_count_1000"): "ret Int64 168",
}


# ---------------------------------------------------------------------------
# The language subset: every program uses only POST Python's constructs,
# and together they use all of them.

DECORATORS = {"ufunc", "gpu", "kernel", "cold", "noinline"}
DTYPE_NAMES = {d.name for d in postyp.ALL}
PY_TYPES = {"int", "float", "complex", "bool", "str", "bytes"}
BUILTINS = {"len", "abs", "min", "max", "sum", "divmod", "round", "range", "prange", "int", "float", "complex", "bool",
            "print"}
ATTRS = {"shape", "ndim", "size", "real", "imag", "conjugate", "T"}
# NumPy's ufuncs compiled code calls on scalars, and its float constants.
NUMPY_UFUNCS = {
    "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin",
    "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "rint", "fabs", "arctan2",
    "hypot", "copysign", "fmod", "floor", "ceil", "trunc", "round", "around", "abs", "absolute", "negative", "square", "sign",
    "isnan", "isinf", "isfinite", "minimum", "maximum", "fmin", "fmax", "power",
    "radians", "deg2rad", "degrees", "rad2deg", "conj", "conjugate",
    # Elementwise selections over arrays.
    "where", "clip",
}
NUMPY_CONSTANTS = {"pi", "e", "inf", "nan", "euler_gamma"}
# The attributes of `np.iinfo(T)` and `np.finfo(T)` compiled code reads.
TYPE_INFO = {
    "iinfo": {"min", "max", "bits"},
    "finfo": {"eps", "epsneg", "max", "min", "tiny", "smallest_normal", "smallest_subnormal", "resolution",
              "bits", "precision", "nmant", "nexp", "iexp", "maxexp", "minexp", "machep", "negep"},
}
# NumPy's functions on whole arrays that compiled code has: creation (the
# one keyword is `dtype=`) and reductions, also as array methods.
NUMPY_CREATE = {"empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like", "full_like",
                "arange", "copy"}
NUMPY_REDUCE = {"sum", "prod", "min", "max", "mean", "argmin", "argmax", "any", "all"}
# NumPy's array functions with keywords of their own: sorting and searching,
# the NaN-ignoring reductions, the norms, arrays made from lists.
NUMPY_ARRAY_FUNCS = {
    "sort": set(), "argsort": {"kind"}, "searchsorted": {"side"}, "outer": set(), "roll": {"shift", "axis"}, "cross": set(),
    "linspace": {"start", "stop", "num", "endpoint"}, "array": {"dtype"}, "asarray": set(), "nansum": set(), "nanprod": set(),
    "nanmin": set(), "nanmax": set(), "nanargmin": set(), "nanargmax": set(), "nanmean": set(),
    "nanvar": {"ddof"}, "nanstd": {"ddof"}, "var": {"ddof"}, "std": {"ddof"},
    "concatenate": {"axis"}, "diff": {"n"}, "flatnonzero": set(), "unique": set(), "partition": set(),
    "trace": {"offset"}, "eye": {"M", "k", "dtype"}, "identity": {"dtype"},
    "histogram": {"bins", "range", "density", "weights"},
}
ARRAY_METHODS = NUMPY_REDUCE | {"copy", "transpose", "ravel", "var", "std", "trace"}
# The reductions and running sums that take an axis (`axis=k`, or the
# argument after the array).
NUMPY_AXIS = NUMPY_REDUCE | {"cumsum"}


def is_axis_constant(e):
    """An integer literal, negated or not, or None."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        e = e.operand
    return isinstance(e, ast.Constant) and (e.value is None or type(e.value) is int)
NUMPY_DTYPES = {"float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
                "uint32", "uint64", "bool_", "complex64", "complex128"}
# NumPy's other names of the same dtypes (NumPy 2, x86-64 and AArch64 Linux).
NUMPY_DTYPE_ALIASES = {"double", "single", "half", "int_", "intp", "uintp", "long", "ulong", "longlong",
                       "ulonglong", "intc", "uintc", "byte", "ubyte", "short", "ushort", "bool", "csingle",
                       "cdouble"}
BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
          ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}
CMPOPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


class Lint:
    def __init__(self):
        self.features = set()
        self.errors = []
        self.dtype_locals = set()

    def err(self, path, node, msg):
        self.errors.append(f"{path}:{getattr(node, 'lineno', 0)}: {msg}")

    def program(self, path, modname):
        with open(path, "rb") as f:
            raw = f.read()
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            self.errors.append(f"{path}: not ASCII")
            return
        tree = ast.parse(text, path)
        F = self.features
        body = tree.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            F.add("module docstring")
            body = body[1:]
        funcs = {n.name for n in body if isinstance(n, ast.FunctionDef)}
        funcs |= {n.targets[0].id for n in body if isinstance(n, ast.Assign) and len(n.targets) == 1
                  and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Name)}
        self.imported = set()
        self.modules = set()
        self.post_modules = {}  # dotted name read -> POST module imported whole
        for node in body:
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == "postc.math" and a.asname is None:
                        F.add("import postc.math")
                        self.modules.add("postc")
                    elif a.name == "numpy" and a.asname == "np":
                        F.add("import numpy as np")
                        self.modules.add("np")
                    elif a.name == "math" and a.asname is None:
                        F.add("import math")
                        self.modules.add("math")
                    elif os.path.exists(module_path(a.name)):
                        F.add("import of a whole POST module")
                        if a.asname:
                            F.add("import of a whole POST module under another name")
                        self.post_modules[a.asname or a.name] = a.name
                    else:
                        self.err(path, node, f"import {a.name}")
            elif isinstance(node, ast.ImportFrom):
                if node.level or any(a.name == "*" for a in node.names):
                    self.err(path, node, "relative or star import")
                m = node.module
                if m == "postyp":
                    F.add("from postyp import")
                elif m == "postc":
                    F.add("from postc import")
                elif m == "postc.math":
                    F.add("from postc.math import")
                elif m == "math":
                    F.add("from math import")
                    for a in node.names:
                        if a.name not in MATH_MODULE_FUNCS and a.name not in MATH_MODULE_CONSTANTS:
                            self.err(path, node, f"from math import {a.name}: not compiled")
                elif m == "typing" and all(a.name == "Optional" for a in node.names):
                    F.add("from typing import Optional")
                elif m == "numpy":
                    F.add("from numpy import")
                    for a in node.names:
                        if a.name not in NUMPY_UFUNCS | NUMPY_CONSTANTS:
                            self.err(path, node, f"from numpy import {a.name}: not a ufunc or constant")
                elif os.path.exists(module_path(m)):
                    F.add("import of another POST module")
                    if any(a.asname for a in node.names):
                        F.add("import of a POST function under another name")
                else:
                    self.err(path, node, f"from {m} import: not a POST module")
                for a in node.names:
                    self.imported.add(a.asname or a.name)
            elif isinstance(node, ast.Assign):
                if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
                    self.err(path, node, "module-level assignment target")
                    continue
                name = node.targets[0].id
                v = node.value
                if name == "__all__":
                    F.add("__all__")
                    if not isinstance(v, ast.List) or not all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in v.elts):
                        self.err(path, node, "__all__ must be a list of strings")
                    else:
                        for e in v.elts:
                            if e.value not in funcs and e.value not in {t.targets[0].id for t in body if isinstance(t, ast.Assign)}:
                                self.err(path, node, f"__all__ names {e.value}, which is not defined")
                elif isinstance(v, ast.Name):
                    F.add("function alias" if v.id in funcs else "alias of an imported function")
                elif isinstance(v, ast.Constant) or (isinstance(v, ast.UnaryOp) and isinstance(v.operand, ast.Constant)):
                    F.add("module constant")
                elif isinstance(v, ast.BinOp) and self.constant_value(v):
                    F.add("module constant of arithmetic")
                elif (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "array"
                      and isinstance(v.func.value, ast.Name) and v.func.value.id == "np"
                      and v.args and isinstance(v.args[0], (ast.List, ast.Tuple))):
                    F.add("module-level array")
                else:
                    self.err(path, node, "module-level assignment of a non-constant")
            elif isinstance(node, ast.AnnAssign):
                if isinstance(node.target, ast.Name) and isinstance(node.value, ast.Constant):
                    F.add("annotated module constant")
                else:
                    self.err(path, node, "module-level annotated assignment")
            elif isinstance(node, ast.FunctionDef):
                self.function(path, node, funcs)
            else:
                self.err(path, node, f"module-level {type(node).__name__}")

    def annotation(self, path, node, what):
        F = self.features
        if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                and node.value.id == "Optional"):
            F.add("Optional[T]")
            return self.annotation(path, node.slice, what)
        if isinstance(node, ast.Name):
            if node.id in DTYPE_NAMES:
                F.add(f"dtype {node.id}")
            elif node.id in PY_TYPES:
                F.add(f"annotation {node.id}")
            else:
                self.err(path, node, f"{what}: unknown type {node.id}")
            return
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            if node.value.id == "Out":
                F.add("Out[...]")
                return self.annotation(path, node.slice, what)
            if node.value.id in ("tuple", "Tuple") and what == "return":
                F.add("tuple result")
                items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                for it in items:
                    self.annotation(path, it, what)
                return
            if node.value.id in ("tuple", "Tuple") and what.startswith("parameter"):
                F.add("tuple parameter")
                items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                for it in items:
                    if not (isinstance(it, ast.Name) and it.id in DTYPE_NAMES):
                        self.err(path, it, f"{what}: an element of a tuple parameter is a number dtype")
                return
            self.annotation(path, node.value, what)
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            F.add(f"{len(items)}-D array")
            for k, it in enumerate(items):
                if isinstance(it, ast.Constant) and isinstance(it.value, int):
                    F.add("static-shape array")
                elif isinstance(it, ast.Slice) and it.lower is None and it.upper is None:
                    if it.step is not None:
                        if k == 0 and len(items) > 1:
                            F.add("F-order array [::1, :]")
                        elif k == len(items) - 1 and len(items) > 1:
                            F.add("explicit C-order array [:, ::1]")
                else:
                    self.err(path, it, f"{what}: bad array annotation")
            return
        if isinstance(node, ast.Constant) and node.value is None:
            F.add("-> None")
            return
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            for side, other in ((node.left, node.right), (node.right, node.left)):
                if isinstance(other, ast.Constant) and other.value is None:
                    F.add("T | None")
                    return self.annotation(path, side, what)
        self.err(path, node, f"{what}: bad annotation")

    def constant_value(self, e):
        """A literal number or bool, a negated one, a module constant's name,
        a constant of NumPy or `math` (`np.pi`), or arithmetic of them."""
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
            e = e.operand
        if isinstance(e, ast.Name):
            return True
        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id in ("np", "math"):
            self.features.add("library constant in a constant")
            return e.attr in NUMPY_CONSTANTS or e.attr in ("pi", "e", "tau", "inf", "nan")
        if isinstance(e, ast.BinOp) and type(e.op) in BINOPS:
            return self.constant_value(e.left) and self.constant_value(e.right)
        return isinstance(e, ast.Constant) and isinstance(e.value, (bool, int, float, complex))

    def function(self, path, fn, funcs):
        F = self.features
        for d in fn.decorator_list:
            if isinstance(d, ast.Name) and d.id in DECORATORS:
                F.add(f"@{d.id}")
            elif isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "ufunc" and len(d.args) == 1 and isinstance(d.args[0], ast.Constant):
                sig = d.args[0].value
                F.add("@ufunc(signature) with scalar output" if sig.endswith("->()") else "@ufunc(signature) with array output")
            elif isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "gpu" and not d.args and [k.arg for k in d.keywords] == ["fallback"]:
                F.add("@gpu(fallback=True)")
            else:
                self.err(path, d, "unknown decorator")
        a = fn.args
        if a.vararg or a.kwarg:
            self.err(path, fn, "only positional or keyword parameters")
        if a.posonlyargs:
            F.add("positional-only parameters")
        if a.kwonlyargs:
            F.add("keyword-only parameter")
        for d in a.defaults + [d for d in a.kw_defaults if d is not None]:
            F.add("default parameter value")
            if isinstance(d, ast.Constant) and d.value is None:
                F.add("default None")
            elif (isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and isinstance(d.func.value, ast.Name)
                  and d.func.value.id == "np" and d.func.attr in ("empty", "zeros", "ones", "full")):
                F.add("array default")
            elif not self.constant_value(d):
                self.err(path, d, "a default is a number, a negative number or a module constant")
        for p in a.args + a.kwonlyargs:
            if p.annotation is None:
                # A helper's parameter, typed by each call (compiled once
                # per list of argument types).
                F.add("parameter without annotation")
            elif (isinstance(p.annotation, ast.Subscript) and isinstance(p.annotation.value, ast.Name)
                  and p.annotation.value.id == "type" and isinstance(p.annotation.slice, ast.Name)
                  and p.annotation.slice.id in DTYPE_NAMES):
                # A dtype fixed when compiled: read as a dtype local is.
                F.add("dtype parameter")
                self.dtype_locals.add(p.arg)
            else:
                self.annotation(path, p.annotation, f"parameter {p.arg}")
        if fn.returns is not None:
            self.annotation(path, fn.returns, "return")
        else:
            F.add("no return annotation")
        body = fn.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            F.add("function docstring")
            body = body[1:]
        self.fn = fn
        self.funcs = funcs
        self.loop = 0
        for s in body:
            self.stmt(path, s)

    def stmt(self, path, s):
        F = self.features
        if isinstance(s, ast.Assign):
            if len(s.targets) != 1:
                self.err(path, s, "chained assignment")
            t = s.targets[0]
            if isinstance(t, ast.Subscript):
                self.target(path, t)
                F.add("indexed store")
            elif isinstance(t, (ast.Tuple, ast.List)):
                for e in t.elts:
                    if isinstance(e, ast.Subscript):
                        F.add("parallel assignment to an element")
                        self.target(path, e)
                    elif not isinstance(e, ast.Name):
                        self.err(path, s, "unpacking target")
                v = s.value
                if isinstance(v, (ast.Tuple, ast.List)):
                    F.add("parallel assignment")
                    if len(v.elts) != len(t.elts):
                        self.err(path, s, "unpacking count")
                    for e in v.elts:
                        self.expr(path, e)
                elif isinstance(v, ast.Attribute) and v.attr == "shape":
                    F.add("unpacking a.shape")
                    self.expr(path, v.value)
                elif isinstance(v, ast.Call):
                    F.add("unpacking a tuple result")
                    self.expr(path, v)
                else:
                    F.add("unpacking a tuple value or a 1-D array")
                    self.expr(path, v)
                return
            elif not isinstance(t, ast.Name):
                self.err(path, s, "assignment target")
            v = s.value
            if isinstance(t, ast.Name) and isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) \
                    and v.value.id == "np" and (v.attr in NUMPY_DTYPES or v.attr in NUMPY_DTYPE_ALIASES):
                # `dtype = np.int_`: a local naming a dtype for `dtype=`.
                F.add("local bound to a dtype")
                self.dtype_locals.add(t.id)
                return
            if isinstance(t, ast.Name) and isinstance(v, ast.Name) and v.id in self.dtype_locals:
                # `kind = dtype` of a dtype local: the same dtype.
                F.add("local bound to a dtype local")
                self.dtype_locals.add(t.id)
                return
            if isinstance(t, ast.Name) and isinstance(v, ast.List):
                # `xs = [x0]`: a list of numbers that grows by `append`.
                F.add("list local")
                for e in v.elts:
                    self.expr(path, e)
                return
            if isinstance(t, ast.Name) and isinstance(v, ast.ListComp):
                # `xs = [f(x) for x in a if c]`: a list local built by one
                # `for` (and `if`s), the comprehension's names its own.
                if len(v.generators) != 1 or v.generators[0].is_async:
                    self.err(path, v, "list comprehension with more than one for")
                g = v.generators[0]
                F.add("list comprehension")
                for e in [g.iter, *g.ifs, v.elt]:
                    self.expr(path, e)
                return
            if isinstance(t, ast.Name) and self.parameter_type(v):
                # `T = type(z)` of a scalar parameter: a local naming its dtype.
                F.add("local bound to type(parameter)")
                self.dtype_locals.add(t.id)
                return
            self.expr(path, s.value)
        elif isinstance(s, ast.AnnAssign):
            if not isinstance(s.target, ast.Name) or s.value is None:
                self.err(path, s, "annotated assignment")
            F.add("annotated local")
            self.annotation(path, s.annotation, "local")
            self.expr(path, s.value)
        elif isinstance(s, ast.AugAssign):
            F.add("augmented assignment")
            if isinstance(s.target, ast.Subscript):
                F.add("augmented indexed store")
                self.target(path, s.target)
            elif not isinstance(s.target, ast.Name):
                self.err(path, s, "augmented assignment target")
            self.binop(path, s, s.op)
            self.expr(path, s.value)
        elif isinstance(s, ast.If):
            F.add("if")
            if len(s.orelse) == 1 and isinstance(s.orelse[0], ast.If):
                F.add("elif")
            elif s.orelse:
                F.add("else")
            self.cond(path, s.test)
            for b in s.body + s.orelse:
                self.stmt(path, b)
        elif isinstance(s, ast.While):
            F.add("while")
            if s.orelse:
                F.add("while ... else")
            self.cond(path, s.test)
            self.loop += 1
            for b in s.body:
                self.stmt(path, b)
            self.loop -= 1
            for b in s.orelse:
                self.stmt(path, b)
        elif isinstance(s, ast.For):
            if s.orelse:
                F.add("for ... else")
            it = s.iter
            names = lambda t: isinstance(t, ast.Name) or (  # noqa: E731
                isinstance(t, ast.Tuple) and all(isinstance(e, ast.Name) for e in t.elts))
            if isinstance(it, ast.Name) and isinstance(s.target, ast.Name):
                F.add("for over an array or a tuple")
                self.expr(path, it)
            elif isinstance(it, (ast.Tuple, ast.List, ast.Attribute)) and names(s.target):
                F.add("for over a tuple")
                for e in (it.elts if isinstance(it, ast.List) else [it]):
                    self.expr(path, e)
            elif isinstance(it, ast.Subscript) and isinstance(s.target, ast.Name):
                F.add("for over a view")
                self.expr(path, it)
            elif (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("enumerate", "zip")
                    and it.args and not it.keywords and names(s.target)):
                F.add(f"for over {it.func.id}()")
                for x in it.args:
                    self.expr(path, x)
            elif (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "ndindex"
                    and isinstance(it.func.value, ast.Name) and it.func.value.id == "np" and it.args
                    and not it.keywords and names(s.target)):
                F.add("for over np.ndindex()")
                for x in it.args:
                    self.expr(path, x)
            elif isinstance(s.target, ast.Name) and (isinstance(it, ast.BinOp) or (
                    isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "ravel")):
                F.add("for over an array a call or an operator makes")
                self.expr(path, it)
            elif not (isinstance(s.target, ast.Name) and isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                    and it.func.id in ("range", "prange") and 1 <= len(it.args) <= 3 and not it.keywords):
                self.err(path, s, "for over something other than range(), an array, enumerate() or zip()")
            else:
                F.add(f"for over range() with {len(it.args)} argument(s)")
                if len(it.args) == 3 and isinstance(it.args[2], ast.UnaryOp) and isinstance(it.args[2].op, ast.USub):
                    F.add("range() with a negative step")
                for x in it.args:
                    self.expr(path, x)
            self.loop += 1
            for b in s.body:
                self.stmt(path, b)
            self.loop -= 1
            for b in s.orelse:
                self.stmt(path, b)
        elif isinstance(s, (ast.Break, ast.Continue)):
            F.add(type(s).__name__.lower())
            if not self.loop:
                self.err(path, s, "break/continue outside a loop")
        elif isinstance(s, ast.Return):
            if isinstance(s.value, ast.Constant) and s.value.value is None:
                F.add("return None")
            else:
                F.add("return" if s.value is not None else "bare return")
                if isinstance(s.value, ast.Tuple):
                    F.add("return of a tuple")
                    for e in s.value.elts:
                        self.expr(path, e)
                elif s.value is not None:
                    self.expr(path, s.value)
        elif isinstance(s, ast.Pass):
            F.add("pass")
        elif isinstance(s, ast.Raise):
            e = s.exc
            call = isinstance(e, ast.Call)
            name = e.func if call else e
            if s.cause is not None or not isinstance(name, ast.Name) or not name.id.endswith("Error"):
                self.err(path, s, "raise of something other than a built-in exception")
            elif call and (e.keywords or len(e.args) > 1
                           or (e.args and not (isinstance(e.args[0], ast.Constant) and isinstance(e.args[0].value, str)))):
                self.err(path, s, "raise with a message other than a string literal")
            F.add("raise with a message" if call and e.args else "raise without a message")
        elif isinstance(s, ast.Assert):
            F.add("assert with a message" if s.msg is not None else "assert without a message")
            if s.msg is not None and not (isinstance(s.msg, ast.Constant) and isinstance(s.msg.value, str)):
                self.err(path, s, "assert message must be a string literal")
            self.cond(path, s.test)
        elif isinstance(s, ast.Expr):
            if not isinstance(s.value, ast.Call):
                self.err(path, s, "expression statement that is not a call")
            f = s.value.func
            if isinstance(f, ast.Attribute) and f.attr == "append" and isinstance(f.value, ast.Name) \
                    and len(s.value.args) == 1:
                F.add("list append")
                self.expr(path, s.value.args[0])
                return
            F.add("call as a statement")
            self.expr(path, s.value)
        else:
            self.err(path, s, f"statement {type(s).__name__}")

    def target(self, path, t):
        if not isinstance(t.value, ast.Name):
            self.err(path, t, "indexed store into a non-name")
        self.index(path, t, store=True)

    def index(self, path, sub, store=False):
        F = self.features
        idx = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
        if len(idx) > 1:
            F.add("multi-index a[i, j]")
        for i in idx:
            if store and (isinstance(i, ast.Slice) or (isinstance(i, ast.Constant) and i.value in (None, ...))):
                F.add("assignment to a slice")
            if isinstance(i, ast.Slice):
                F.add("slice lo:hi:st")
                if i.step is not None:
                    F.add("slice with a step")
                for part in (i.lower, i.upper, i.step):
                    if part is not None:
                        self.expr(path, part)
                continue
            if isinstance(i, ast.Constant) and i.value is None:
                F.add("None (new axis) in an index")
                continue
            if isinstance(i, ast.Constant) and i.value is ...:
                F.add("... in an index")
                continue
            if (isinstance(i, ast.UnaryOp) and isinstance(i.op, ast.USub)) or (isinstance(i, ast.BinOp) and isinstance(i.op, ast.Sub)):
                F.add("index that can be negative")
            self.expr(path, i)

    def array_function(self, path, e):
        """`np.sort(a)`, `a.sort()`, `np.argsort(a)`, `a.argsort()`,
        `np.searchsorted`, `np.nanXXX`,
        `np.linalg.norm`, `np.array([...])`: whether `e` is one (checked)."""
        F = self.features
        f = e.func
        if not isinstance(f, ast.Attribute):
            return False
        on_np = isinstance(f.value, ast.Name) and f.value.id == "np"
        on_linalg = (isinstance(f.value, ast.Attribute) and f.value.attr == "linalg"
                     and isinstance(f.value.value, ast.Name) and f.value.value.id == "np")
        if on_np and f.attr in NUMPY_ARRAY_FUNCS:
            name, keywords = f"np.{f.attr}()", NUMPY_ARRAY_FUNCS[f.attr]
        elif on_linalg and f.attr == "norm":
            name, keywords = "np.linalg.norm()", {"ord"}
        elif on_linalg and f.attr == "det":
            name, keywords = "np.linalg.det()", set()
        elif on_linalg and f.attr in ("eigh", "eigvalsh"):
            name, keywords = f"np.linalg.{f.attr}()", {"UPLO"}
        elif f.attr == "sort" and not on_np and not e.args and not e.keywords:
            name, keywords = "method .sort()", set()
            self.expr(path, f.value)
        elif f.attr == "argsort" and not on_np and not e.args:
            name, keywords = "method .argsort()", {"kind"}
            self.expr(path, f.value)
        else:
            return False
        F.add(name)
        for k in e.keywords:
            if k.arg not in keywords:
                self.err(path, e, f"keyword {k.arg}= of {name}")
            elif k.arg == "dtype":
                self.dtype_arg(path, k.value)
            else:
                self.expr(path, k.value)
        for a in e.args:
            if f.attr == "array" and on_np:
                self.nested_list(path, a)
            elif f.attr == "cross" and on_np and isinstance(a, (ast.List, ast.Tuple)):
                F.add("list of numbers in np.cross()")
                for x in a.elts:
                    self.expr(path, x)
            else:
                self.expr(path, a)
        return True

    def nested_list(self, path, e):
        F = self.features
        if isinstance(e, (ast.List, ast.Tuple)):
            F.add("list of numbers in np.array()")
            for x in e.elts:
                self.nested_list(path, x)
        else:
            self.expr(path, e)

    def module_member(self, e):
        """Whether `e` is `m.f` of a POST module `m` imported whole."""
        if not isinstance(e, ast.Attribute):
            return False
        parts, v = [], e.value
        while isinstance(v, ast.Attribute):
            parts.append(v.attr)
            v = v.value
        if not isinstance(v, ast.Name):
            return False
        return ".".join([v.id] + parts[::-1]) in self.post_modules

    def parameter_type(self, e):
        """`type(p)` of a scalar parameter `p`."""
        if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "type"
                and len(e.args) == 1 and not e.keywords and isinstance(e.args[0], ast.Name)):
            return False
        return any(a.arg == e.args[0].id for a in self.fn.args.args + self.fn.args.kwonlyargs)

    def dtype_arg(self, path, e):
        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "np" and e.attr in NUMPY_DTYPES:
            self.features.add("dtype np.NAME")
        elif isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "np" \
                and e.attr in NUMPY_DTYPE_ALIASES:
            self.features.add("dtype np.ALIAS")
        elif isinstance(e, ast.Name) and (e.id in DTYPE_NAMES or e.id in ("float", "int", "bool", "complex")):
            self.features.add("dtype by name")
        elif isinstance(e, ast.Name) and e.id in self.dtype_locals:
            self.features.add("dtype local")
        elif isinstance(e, ast.Constant) and e.value in NUMPY_DTYPES:
            self.features.add("dtype string")
        elif isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.attr == "dtype":
            self.features.add("dtype of an array")
        else:
            self.err(path, e, "a dtype= other than np.NAME, a postyp dtype, a Python type or an array's dtype")

    def shape_arg(self, path, e):
        if isinstance(e, (ast.Tuple, ast.List)):
            self.features.add("shape tuple")
            for x in e.elts:
                self.expr(path, x)
        elif isinstance(e, ast.Attribute) and e.attr == "shape":
            self.features.add("shape a.shape")
            self.expr(path, e.value)
        else:
            self.expr(path, e)

    def cond(self, path, e):
        if isinstance(e, (ast.Name, ast.Subscript, ast.BinOp)):
            self.features.add("condition that may be a number")
        self.expr(path, e)

    def binop(self, path, node, op):
        if type(op) not in BINOPS:
            self.err(path, node, f"operator {type(op).__name__}")
        else:
            self.features.add(f"operator {BINOPS[type(op)]}")

    def expr(self, path, e):
        F = self.features
        if isinstance(e, ast.BinOp):
            self.binop(path, e, e.op)
            self.expr(path, e.left)
            self.expr(path, e.right)
        elif isinstance(e, ast.UnaryOp):
            F.add({ast.USub: "unary -", ast.UAdd: "unary +", ast.Not: "not", ast.Invert: "operator ~"}[type(e.op)])
            self.expr(path, e.operand)
        elif isinstance(e, ast.BoolOp):
            F.add("and" if isinstance(e.op, ast.And) else "or")
            for v in e.values:
                self.expr(path, v)
        elif isinstance(e, ast.Compare):
            if len(e.ops) > 1:
                F.add("chained comparison")
            for op in e.ops:
                if isinstance(op, (ast.In, ast.NotIn)) and len(e.ops) == 1:
                    F.add("membership in a tuple")
                elif isinstance(op, (ast.Is, ast.IsNot)) and len(e.ops) == 1 and any(
                        isinstance(x, ast.Constant) and x.value is None for x in (e.left, e.comparators[0])):
                    F.add("is None test")
                elif not isinstance(op, CMPOPS):
                    self.err(path, e, f"comparison {type(op).__name__}")
            self.expr(path, e.left)
            for c in e.comparators:
                self.expr(path, c)
        elif isinstance(e, ast.IfExp):
            F.add("conditional expression")
            self.cond(path, e.test)
            self.expr(path, e.body)
            self.expr(path, e.orelse)
        elif isinstance(e, ast.Call):
            f = e.func
            if self.array_function(path, e):
                return
            np_array = (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "np"
                        and f.attr in NUMPY_CREATE | NUMPY_REDUCE)
            named = {"empty": ["shape"], "zeros": ["shape"], "ones": ["shape"], "full": ["shape", "fill_value"]}.get(getattr(f, "attr", None), [])
            if np_array and f.attr in NUMPY_CREATE and all(k.arg == "dtype" or k.arg in named[len(e.args):] for k in e.keywords):
                F.add(f"np.{f.attr}()")
                if any(k.arg == "dtype" for k in e.keywords):
                    F.add("dtype= keyword")
                for k in e.keywords:
                    if k.arg == "dtype":
                        self.dtype_arg(path, k.value)
                    elif k.arg == "shape":
                        F.add("shape= keyword")
                        self.shape_arg(path, k.value)
                    else:
                        self.expr(path, k.value)
                if f.attr in ("empty", "zeros", "ones", "full") and e.args:
                    self.shape_arg(path, e.args[0])
                    rest = e.args[1:]
                else:
                    rest = e.args
                if f.attr in ("empty", "zeros", "ones", "empty_like", "zeros_like", "ones_like") and len(rest) == (2 if f.attr.endswith("_like") else 1):
                    F.add("positional dtype")
                    self.dtype_arg(path, rest[-1])
                    rest = rest[:-1]
                for a in rest:
                    self.expr(path, a)
                return
            if isinstance(f, ast.Attribute) and f.attr in NUMPY_AXIS \
                    and all(k.arg in ("axis", "keepdims") for k in e.keywords) \
                    and not (isinstance(f.value, ast.Name) and f.value.id == "postc"):
                # A reduction or `cumsum`, of the whole array or along an
                # axis given as an integer constant (or None) or a tuple of
                # them, by keyword or as the argument after the array, and
                # `keepdims=True` or `False`.
                on_np = isinstance(f.value, ast.Name) and f.value.id == "np"
                operands = e.args[1:] if on_np else e.args
                axes = list(operands) + [k.value for k in e.keywords if k.arg == "axis"]
                for k in e.keywords:
                    if k.arg == "keepdims":
                        F.add("keepdims=")
                        if not (isinstance(k.value, ast.Constant) and type(k.value.value) is bool):
                            self.err(path, e, "keepdims= other than True or False")
                if axes:
                    F.add(f"np.{f.attr}(axis=)" if on_np else f"method .{f.attr}(axis=)")
                    if isinstance(axes[0], ast.Tuple) and len(axes) == 1:
                        F.add("a tuple of axes")
                        if not all(is_axis_constant(x) for x in axes[0].elts):
                            self.err(path, e, "an axis other than an integer constant")
                    elif len(axes) > 1 or not is_axis_constant(axes[0]):
                        self.err(path, e, "an axis other than one integer constant")
                else:
                    F.add(f"np.{f.attr}()" if on_np else f"method .{f.attr}()")
                if on_np:
                    for a in e.args[:1]:
                        self.expr(path, a)
                else:
                    self.expr(path, f.value)
                return
            if np_array and not e.keywords:
                F.add(f"np.{f.attr}()")
                for a in e.args:
                    self.expr(path, a)
                return
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "np" \
                    and f.attr == "reshape" and len(e.args) == 2 and not e.keywords:
                F.add("np.reshape()")
                self.expr(path, e.args[0])
                self.shape_arg(path, e.args[1])
                return
            method = not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "np")
            if isinstance(f, ast.Attribute) and method and f.attr in ("var", "std") and not e.args \
                    and all(k.arg == "ddof" for k in e.keywords):
                # `a.var()`, `a[1:].std(ddof=1)`.
                F.add(f"method .{f.attr}()")
                self.expr(path, f.value)
                for k in e.keywords:
                    self.expr(path, k.value)
                return
            if isinstance(f, ast.Attribute) and f.attr == "dot" and len(e.args) == 2 - method and not e.keywords:
                # `np.dot(a, b)`, `a.dot(b)`.
                F.add("method .dot()" if method else "np.dot()")
                for a in ([f.value] if method else []) + e.args:
                    self.expr(path, a)
                return
            if isinstance(f, ast.Attribute) and f.attr in ("reshape", "flatten", "astype") \
                    and not (isinstance(f.value, ast.Name) and f.value.id in ("np", "postc")):
                # `a.reshape(shape)` / `a.reshape(d0, d1, ...)`, `a.flatten()`,
                # `a.astype(dtype)` (or `dtype=`).
                F.add(f"method .{f.attr}()")
                self.expr(path, f.value)
                dtypes = [k.value for k in e.keywords if k.arg == "dtype" and f.attr == "astype"]
                if len(dtypes) != len(e.keywords):
                    self.err(path, e, "keyword or starred arguments")
                if f.attr == "astype":
                    dtypes += e.args
                    if len(dtypes) != 1:
                        self.err(path, e, "astype() with other than one dtype")
                    for d in dtypes:
                        self.dtype_arg(path, d)
                elif f.attr == "flatten" and e.args:
                    self.err(path, e, "flatten() with arguments")
                elif len(e.args) == 1:
                    self.shape_arg(path, e.args[0])
                else:
                    for a in e.args:
                        self.expr(path, a)
                return
            if isinstance(f, ast.Attribute) and f.attr in ARRAY_METHODS and not e.args and not e.keywords \
                    and not (isinstance(f.value, ast.Name) and f.value.id in ("np", "postc")):
                F.add(f"method .{f.attr}()")
                self.expr(path, f.value)
                return
            post_call = isinstance(f, ast.Name) and (f.id in self.funcs or f.id in self.imported) \
                or self.module_member(f)
            if any(isinstance(a, ast.Starred) for a in e.args) or any(k.arg is None for k in e.keywords):
                self.err(path, e, "starred arguments")
            elif e.keywords and not post_call and not (isinstance(f, ast.Name) and f.id == "print"):
                self.err(path, e, "keyword arguments to what is not a POST function")
            for k in e.keywords:
                F.add("keyword argument")
                self.expr(path, k.value)
            if self.parameter_type(f):
                F.add("cast by calling type(parameter)")
            elif isinstance(f, ast.Name):
                if f.id == self.fn.name:
                    F.add("recursion")
                if f.id in BUILTINS:
                    F.add(f"built-in {f.id}()")
                elif f.id in self.dtype_locals:
                    F.add("cast by calling a dtype local")
                elif f.id in DTYPE_NAMES:
                    F.add("cast by calling a dtype")
                    F.add(f"cast to {f.id}")
                elif f.id == "empty":
                    F.add("empty()")
                elif f.id not in self.funcs and f.id not in self.imported:
                    self.err(path, e, f"call of unknown {f.id}")
            elif self.module_member(f):
                F.add("call through a whole POST module")
            elif isinstance(f, ast.Attribute):
                if f.attr in ("conjugate", "conj"):
                    F.add(".conjugate()")
                    self.expr(path, f.value)
                elif isinstance(f.value, ast.Attribute) and isinstance(f.value.value, ast.Name) and f.value.value.id == "postc" and f.value.attr == "math":
                    F.add("postc.math.NAME()")
                elif isinstance(f.value, ast.Name) and f.value.id == "np" and f.attr in NUMPY_UFUNCS:
                    F.add("np.NAME() on scalars")
                elif isinstance(f.value, ast.Name) and f.value.id == "math" and f.attr in MATH_MODULE_FUNCS:
                    F.add("math.NAME()")
                elif isinstance(f.value, ast.Name) and f.value.id == "np" and (
                        f.attr in NUMPY_DTYPES or f.attr == "bool_") and len(e.args) == 1:
                    F.add("np.DTYPE(x), a NumPy scalar type's cast")
                else:
                    self.err(path, e, "call of an attribute")
            else:
                self.err(path, e, "call of an expression")
            for a in e.args:
                if isinstance(f, ast.Name) and f.id in ("min", "max", "sum") and isinstance(a, ast.List) \
                        and len(e.args) == 1:
                    # `max([a, b])`: a list display only iterated.
                    F.add(f"list display as the argument of {f.id}()")
                    for x in a.elts:
                        self.expr(path, x)
                else:
                    self.expr(path, a)
        elif isinstance(e, ast.Constant):
            v = e.value
            if isinstance(v, bool):
                F.add("literal bool")
            elif isinstance(v, str):
                F.add("literal str")
            elif isinstance(v, bytes):
                F.add("literal bytes")
            elif v is None:
                F.add("None value")
        elif isinstance(e, ast.Name):
            pass
        elif isinstance(e, ast.Tuple):
            F.add("tuple value")
            for x in e.elts:
                self.expr(path, x)
        elif isinstance(e, ast.Attribute):
            if self.module_member(e):
                F.add("constant through a whole POST module")
            elif isinstance(e.value, ast.Name) and e.value.id == "np" and e.attr in NUMPY_CONSTANTS:
                F.add("np constant")
            elif isinstance(e.value, ast.Name) and e.value.id == "math" and e.attr in MATH_MODULE_CONSTANTS:
                F.add("math constant")
            elif isinstance(e.value, ast.Call) and isinstance(e.value.func, ast.Attribute) \
                    and isinstance(e.value.func.value, ast.Name) and e.value.func.value.id == "np" \
                    and e.value.func.attr in TYPE_INFO and e.attr in TYPE_INFO[e.value.func.attr] \
                    and len(e.value.args) == 1 and not e.value.keywords:
                F.add(f"np.{e.value.func.attr}(T).NAME")
                self.dtype_arg(path, e.value.args[0])
            elif e.attr in ATTRS:
                F.add(f".{e.attr}")
                self.expr(path, e.value)
            else:
                self.err(path, e, f"attribute .{e.attr}")
        elif isinstance(e, ast.Subscript):
            if isinstance(e.value, ast.Attribute) and e.value.attr == "shape":
                if isinstance(e.slice, ast.Slice):
                    F.add(".shape[lo:hi], a slice of the extents")
                    for part in (e.slice.lower, e.slice.upper, e.slice.step):
                        if part is not None:
                            self.expr(path, part)
                else:
                    F.add(".shape[k]")
                    self.expr(path, e.slice)
                self.expr(path, e.value.value)
            else:
                self.expr(path, e.value)
                self.index(path, e)
        else:
            self.err(path, e, f"expression {type(e).__name__}")


REQUIRED = [
    "module docstring", "function docstring", "from postyp import", "from postc import",
    "from postc.math import", "import postc.math", "postc.math.NAME()", "import numpy as np",
    "annotated module constant", "module constant", "module-level array", "__all__", "function alias",
    "alias of an imported function", "import of another POST module",
    "import of a POST function under another name", "annotated local", "augmented assignment",
    "indexed store", "augmented indexed store", "multi-index a[i, j]", "if", "elif", "else", "while",
    "for over range() with 1 argument(s)", "for over range() with 2 argument(s)",
    "for over range() with 3 argument(s)", "range() with a negative step", "for over an array or a tuple",
    "for over enumerate()", "for over zip()", "for ... else", "while ... else", "break", "continue",
    "return", "bare return", "return None", "no return annotation", "pass", "assert with a message", "assert without a message",
    "call as a statement", "recursion", "operator /", "operator //", "operator %", "operator **",
    "operator &", "operator |", "operator ^", "operator <<", "operator >>", "operator ~",
    "unary -", "chained comparison", "and", "or", "not", "conditional expression",
    "condition that may be a number", "built-in len()", ".shape[k]", ".ndim", "built-in abs()",
    "built-in min()", "built-in max()", "built-in int()", "built-in float()", "built-in complex()",
    "cast by calling a dtype", ".real", ".imag", ".conjugate()", "literal str", "literal bytes",
    "literal bool", "empty()", "index that can be negative", "1-D array", "2-D array",
    "static-shape array", "F-order array [::1, :]", "explicit C-order array [:, ::1]", "Out[...]",
    "-> None", "@ufunc", "@ufunc(signature) with scalar output", "@ufunc(signature) with array output",
    "@cold", "@noinline", "@gpu(fallback=True)", "from numpy import", "np.NAME() on scalars", "np constant",
    "import math", "from math import", "math.NAME()", "math constant",
    "parallel assignment", "parallel assignment to an element", "unpacking a.shape",
    "unpacking a tuple value or a 1-D array", "tuple value", "membership in a tuple", "for over a tuple",
    "built-in sum()", "built-in divmod()", "built-in round()", "np.iinfo(T).NAME", "np.finfo(T).NAME",
    "raise with a message", "raise without a message",
    "slice lo:hi:st", "slice with a step", "None (new axis) in an index", "... in an index", ".T",
    "method .transpose()", "method .ravel()", "for over a view", "assignment to a slice",
    "default parameter value", "keyword argument",
    "method .reshape()", "np.reshape()", "method .flatten()", "method .astype()",
    "operator @", "np.dot()", "method .dot()",
    ".shape[lo:hi], a slice of the extents", "list display as the argument of max()", "positional-only parameters",
    "tuple parameter", "shape= keyword", "array default",
    "import of a whole POST module", "import of a whole POST module under another name",
    "call through a whole POST module", "constant through a whole POST module",
    "parameter without annotation", "for over an array a call or an operator makes",
] + [f"dtype {d}" for d in sorted(DTYPE_NAMES)] + [f"annotation {t}" for t in sorted(PY_TYPES)] + [
    f"cast to {d}" for d in ("Bool", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32",
                             "UInt64", "Float16", "Float32", "Float64", "Complex64", "Complex128")
]


def lint_programs():
    lint = Lint()
    for m in all_program_modules():
        lint.program(os.path.relpath(module_path(m)), m)
    missing = [f for f in REQUIRED if f not in lint.features]
    return lint.errors, missing


# ---------------------------------------------------------------------------


def expected_path(modname):
    return os.path.join(HERE, *modname.split(".")) + ".expected"


def all_program_modules():
    mods = []
    for dirpath, dirnames, filenames in os.walk(HERE):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for f in sorted(filenames):
            if f.endswith(".py") and not (dirpath == HERE and f == "oracle.py"):
                rel = os.path.relpath(os.path.join(dirpath, f), HERE)
                mods.append(rel[:-3].replace(os.sep, "."))
    return mods


def within_tolerance(committed, fresh):
    """Whether the committed expected text and the one CPython gives now
    differ only in results of cases with a tolerance (`tol ulps=N`: NumPy's
    float functions give other last bits on other CPUs, and the compiled
    code is checked within N ulps anyway), each by at most N ulps of the
    result's float dtype."""
    old_cases, new_cases = committed.split("\n\n"), fresh.split("\n\n")
    if len(old_cases) != len(new_cases):
        return False
    for old, new in zip(old_cases, new_cases):
        if old == new:
            continue
        tol = re.search(r"^tol ulps=(\d+)$", new, re.M)
        old_lines, new_lines = old.split("\n"), new.split("\n")
        if tol is None or len(old_lines) != len(new_lines):
            return False
        ulps = int(tol.group(1))
        for a, b in zip(old_lines, new_lines):
            if a == b:
                continue
            if not (a.startswith(("ret ", "out ")) and b.startswith(("ret ", "out "))):
                return False
            bits = {"Float16": 10, "Float32": 23, "Complex64": 23}.get(a.split()[1], 52)
            ta, tb = a.split(), b.split()
            if len(ta) != len(tb):
                return False
            for x, y in zip(ta, tb):
                if x == y:
                    continue
                try:
                    fx, fy = float.fromhex(x), float.fromhex(y)
                except ValueError:
                    return False
                if abs(fx - fy) > ulps * 2.0 ** -bits * max(abs(fx), abs(fy)):
                    return False
    return True


def main():
    check = "--check" in sys.argv[1:]
    stale, errors = [], []
    lint_errors, unused = lint_programs()
    errors += [f"not POST Python: {e}" for e in lint_errors]
    if unused:
        errors.append("constructs no program uses: " + ", ".join(unused))
    for modname in PROGRAMS:
        try:
            text = render_program(modname)
        except OracleError as e:
            errors.append(f"{modname}: {e}")
            continue
        path = expected_path(modname)
        if check:
            try:
                with open(path, encoding="utf-8") as f:
                    if not within_tolerance(f.read(), text):
                        stale.append(modname)
            except FileNotFoundError:
                stale.append(modname)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    missing = [m for m in all_program_modules() if m not in PROGRAMS]
    status = 0
    if errors:
        print("oracle errors:\n  " + "\n  ".join(errors))
        status = 1
    if missing:
        print("programs without cases:", ", ".join(missing))
        status = 1
    if stale:
        print("stale .expected files:", ", ".join(stale))
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
