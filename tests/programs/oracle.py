#!/usr/bin/env python3
"""Expected results for the programs in this directory.

Every kernel of every `.pir` program is re-implemented here in plain
Python / NumPy (Python integers with an explicit wrap to the dtype, Python
`//` and `%`, np.float16 / np.float32 scalars, NumPy's float floor_divide
and remainder, Python's complex arithmetic), without looking at postc. The
script writes `<program>.expected` for each program; README.md describes
the format. Run it from anywhere:

    python3 tests/programs/oracle.py          # rewrite the .expected files
    python3 tests/programs/oracle.py --check  # fail if any file is stale
"""

import math
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from expected_text import fmt_bytes, fmt_float, fmt_str, memory_values, root_of  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# The path the harness gives the parser; implicit locations name it.
PIR_PATH = "tests/programs/{}.pir"

np.seterr(all="ignore")

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
NP_DTYPES = {
    "Bool": np.bool_,
    "Int8": np.int8,
    "Int16": np.int16,
    "Int32": np.int32,
    "Int64": np.int64,
    "UInt8": np.uint8,
    "UInt16": np.uint16,
    "UInt32": np.uint32,
    "UInt64": np.uint64,
    "Float16": np.float16,
    "Float32": np.float32,
    "Float64": np.float64,
    "Complex64": np.complex64,
    "Complex128": np.complex128,
}
DTYPE_OF_NP = {np.dtype(v): k for k, v in NP_DTYPES.items()}

I64MIN, I64MAX = INT_RANGES["Int64"]
U64MAX = INT_RANGES["UInt64"][1]


# ---------------------------------------------------------------------------
# Integer semantics: wrap from -O1, `integer overflow` when checked.


class Panic(Exception):
    def __init__(self, message, loc):
        super().__init__(message)
        self.message = message
        self.loc = loc


class Mode:
    """Integer arithmetic for one overflow mode; `loc` names the instruction."""

    def __init__(self, checked):
        self.checked = checked

    def wrap(self, v, dt, loc):
        lo, hi = INT_RANGES[dt]
        if lo <= v <= hi:
            return v
        if self.checked:
            raise Panic("integer overflow", loc)
        return wrap(v, dt)


def wrap(v, dt):
    lo, hi = INT_RANGES[dt]
    span = hi - lo + 1
    return (v - lo) % span + lo


def modulo(a, b, loc):
    if b == 0:
        raise Panic("modulo by zero", loc)
    return a % b


def ipow(a, b, dt, m, loc):
    if b < 0:
        raise Panic("negative exponent", loc)
    return m.wrap(a**b, dt, loc)


def shift_count(n, loc):
    if n < 0:
        raise Panic("negative shift count", loc)
    return n


def sat(x, dt):
    """Saturating float -> int cast: NaN -> 0, truncation toward zero."""
    lo, hi = INT_RANGES[dt]
    if math.isnan(x):
        return 0
    if x == math.inf:
        return hi
    if x == -math.inf:
        return lo
    return max(lo, min(hi, math.trunc(x)))


# ---------------------------------------------------------------------------
# Locations.

_sources = {}


def source(prog):
    if prog not in _sources:
        with open(os.path.join(HERE, prog + ".pir"), encoding="utf-8") as f:
            _sources[prog] = f.read().split("\n")
    return _sources[prog]


def loc(prog, snippet, after=None, exact=False):
    """Location of the instruction whose line contains `snippet` (is it,
    with `exact`; the first such line after a line containing `after`): its
    `!loc` if it has one, else its own 1-based line and column in the .pir
    file."""
    lines = source(prog)
    start = 0
    if after is not None:
        start = next(i for i, l in enumerate(lines) if after in l)
    hits = [i for i in range(start, len(lines)) if (lines[i].strip() == snippet if exact else snippet in lines[i])]
    if not hits:
        raise KeyError(f"{prog}: no line contains {snippet!r}")
    i = hits[0]
    line = lines[i]
    mloc = re.search(r'!loc "([^"]*)":(\d+):(\d+)', line)
    if mloc:
        return (mloc.group(1), int(mloc.group(2)), int(mloc.group(3)))
    col = len(line) - len(line.lstrip(" ")) + 1
    return (PIR_PATH.format(prog), i + 1, col)


# ---------------------------------------------------------------------------
# Values and their text.


def fmt_scalar(dt, v):
    if dt == "Bool":
        assert isinstance(v, (bool, np.bool_))
        return "true" if v else "false"
    if dt in INT_RANGES:
        v = int(v)
        lo, hi = INT_RANGES[dt]
        assert lo <= v <= hi, (dt, v)
        return str(v)
    if dt in ("Float16", "Float32", "Float64"):
        x = float(v)
        assert math.isnan(x) or float(NP_DTYPES[dt](x)) == x, (dt, v)
        return fmt_float(x)
    if dt in ("Complex64", "Complex128"):
        z = complex(v)
        part = np.float32 if dt == "Complex64" else np.float64
        for p in (z.real, z.imag):
            assert math.isnan(p) or float(part(p)) == p, (dt, v)
        return fmt_float(z.real) + "," + fmt_float(z.imag)
    if dt == "Str":
        assert isinstance(v, str)
        return fmt_str(v)
    if dt == "Bytes":
        assert isinstance(v, bytes)
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
    return f"{dt}[] shape={shape} strides={strides} offset={off} buf={r.size} : {vals}"


def logical_values(dt, a):
    return " ".join(fmt_scalar(dt, v) for v in np.asarray(a).reshape(-1, order="C"))


class Arr:
    """A returned array: its dtype and values (logical C order)."""

    def __init__(self, dt, values):
        self.dt = dt
        self.values = np.asarray(values)


# ---------------------------------------------------------------------------
# Cases.


class Case:
    def __init__(self, name, func, args, kernel, ufunc=False, tol=None, outputs=(), modes=("wrap", "checked")):
        self.name = name
        self.func = func
        self.args = args  # list of (dtype, value) or ndarray
        self.kernel = kernel  # (mode, arrays copied) -> return value; writes outputs
        self.ufunc = ufunc
        self.tol = tol
        self.outputs = outputs  # argument indices whose arrays are checked
        self.modes = modes


def run_kernel(case, mode):
    args = []
    for a in case.args:
        if isinstance(a, np.ndarray):
            r = root_of(a).copy(order="A")
            off = a.__array_interface__["data"][0] - root_of(a).__array_interface__["data"][0]
            v = np.lib.stride_tricks.as_strided(
                r.reshape(-1, order="A")[off // r.itemsize :], shape=a.shape, strides=a.strides
            )
            args.append((r, v))
        else:
            args.append(a)
    try:
        ret = case.kernel(Mode(mode == "checked"), *[x[1] if isinstance(x, tuple) and isinstance(x[0], np.ndarray) else x for x in args])
        return ("ok", ret, args)
    except Panic as p:
        return ("panic", p, args)


def render_case(case):
    blocks = []
    results = {m: run_kernel(case, m) for m in ("wrap", "checked")}
    same = render_expect(case, results["wrap"]) == render_expect(case, results["checked"])
    groups = [("both", "wrap")] if same else [("wrap", "wrap"), ("checked", "checked")]
    for label, m in groups:
        if label != "both" and m not in case.modes:
            continue
        if label == "both" and case.modes != ("wrap", "checked"):
            label = case.modes[0]
        suffix = "" if label == "both" else "." + label
        lines = [f"case {case.name}{suffix}"]
        lines.append(("ufunc " if case.ufunc else "call ") + case.func)
        lines.append(f"mode {label}")
        if case.tol:
            lines.append(f"tol {case.tol}")
        for a in case.args:
            if isinstance(a, np.ndarray):
                lines.append("arg " + fmt_array(a))
            else:
                lines.append(f"arg {a[0]} {fmt_scalar(a[0], a[1])}")
        lines += render_expect(case, results[m])
        blocks.append("\n".join(lines))
    return blocks


def render_expect(case, result):
    kind, val, args = result
    lines = []
    if kind == "panic":
        f, l, c = val.loc
        lines.append(f"panic {fmt_str(val.message)} at {f}:{l}:{c}")
        return lines
    if val is None:
        lines.append("ret void")
    elif isinstance(val, Arr):
        a = val.values
        shape = ",".join(str(d) for d in a.shape)
        lines.append(f"ret {val.dt}[] shape={shape} : {logical_values(val.dt, a)}")
    else:
        lines.append(f"ret {val[0]} {fmt_scalar(val[0], val[1])}")
    for i in case.outputs:
        root, view = args[i]
        dt = DTYPE_OF_NP[view.dtype]
        lines.append(f"out {i} : {logical_values(dt, view)}")
        if view.size != root.size:
            lines.append(f"buf {i} : " + " ".join(fmt_scalar(dt, v) for v in memory_values(root)))
    return lines


PROGRAMS = {}


def program(name):
    def deco(fn):
        PROGRAMS[name] = fn
        return fn

    return deco


rng = np.random.default_rng(20240611)


def rand_f64(*shape, scale=10.0):
    return np.round(rng.uniform(-scale, scale, size=shape), 3)


def rand_f32(*shape, scale=10.0):
    return rng.uniform(-scale, scale, size=shape).astype(np.float32)


def f32(x):
    return np.float32(x)


def f16(x):
    return np.float16(x)


# ---------------------------------------------------------------------------
# saxpy


@program("saxpy")
def _saxpy():
    cases = []

    def saxpy(m, a, x, y):
        for i in range(y.shape[0]):
            y[i] = f32(a[1]) * x[i] + y[i]
        return None

    for k, a in enumerate([2.5, -0.1]):
        base = rand_f32(10)
        x = base[::2]
        y = rand_f32(5)
        cases.append(Case(f"saxpy_{k}", "saxpy", [("Float32", float(f32(a))), x, y], saxpy, outputs=(2,)))

    def axpy(m, a, x, y):
        return Arr("Float64", a[1] * x + y)

    x = rand_f64(2, 3)
    y = rand_f64(3)
    cases.append(Case("axpy_broadcast", "axpy", [("Float64", 0.1), x, y], axpy, ufunc=True))
    return cases


# ---------------------------------------------------------------------------
# dot


@program("dot")
def _dot():
    def rowdot(m, a, b):
        out = []
        for row in a:
            acc = 0.0
            for i in range(b.shape[0]):
                acc = acc + float(row[i]) * float(b[i])
            out.append(acc)
        return Arr("Float64", out)

    def dot32(m, x, y):
        acc = f32(0.0)
        for i in range(x.shape[0]):
            acc = acc + x[i] * y[i]
        return ("Float32", acc)

    return [
        Case("rowdot_rows", "rowdot", [rand_f64(3, 4), rand_f64(4)], rowdot, ufunc=True),
        Case("dot32", "dot32", [rand_f32(7), rand_f32(7)], dot32),
        Case("dot32_empty", "dot32", [np.zeros(0, np.float32), np.zeros(0, np.float32)], dot32),
    ]


# ---------------------------------------------------------------------------
# matmul


def matmul_seq(a, b, c):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            acc = 0.0
            for p in range(a.shape[1]):
                acc = acc + float(a[i, p]) * float(b[p, j])
            c[i, j] = acc


@program("matmul")
def _matmul():
    def gufunc(m, a, b, c):
        for s in range(a.shape[0]):
            matmul_seq(a[s], b, c[s])
        return None

    def fortran(m, a, b, c):
        matmul_seq(a, b, c)
        return None

    return [
        Case("matmul_stack", "matmul", [rand_f64(2, 2, 3), rand_f64(3, 2), np.zeros((2, 2, 2))], gufunc, ufunc=True, outputs=(2,)),
        Case(
            "matmul_f",
            "matmul_f",
            [np.asfortranarray(rand_f64(3, 4)), np.asfortranarray(rand_f64(4, 2)), np.zeros((3, 2), order="F")],
            fortran,
            outputs=(2,),
        ),
    ]


# ---------------------------------------------------------------------------
# strided_sum


@program("strided_sum")
def _strided_sum():
    def wsum_t(m, a):
        acc = 0
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                acc += int(a[i, j]) * (100 * i + j)
        return ("Int64", acc)

    def wsum_rev(m, a):
        acc = 0.0
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                acc = acc + float(a[i, j]) * float(100 * i + j)
        return ("Float64", acc)

    def scale_cols(m, a, f):
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                a[i, j] = a[i, j] * f32(f[1])
        return None

    base_i = rng.integers(-1000, 1000, size=(3, 4)).astype(np.int32)
    t = base_i.T
    assert t.strides == (4, 16)
    base_f = rand_f64(4, 6)
    rev = base_f[::-1, ::2]
    assert rev.strides == (-48, 16)
    base_s = rand_f32(3, 6)
    cols = base_s.T[1:4, :]
    assert cols.strides == (4, 24)
    return [
        Case("wsum_transposed", "wsum_t", [t], wsum_t),
        Case("wsum_reversed_stepped", "wsum_rev", [rev], wsum_rev),
        Case("scale_strided_inplace", "scale_cols", [cols, ("Float32", float(f32(-0.3)))], scale_cols, outputs=(0,)),
    ]


# ---------------------------------------------------------------------------
# prefix_sum


@program("prefix_sum")
def _prefix_sum():
    def cumsum_u16(m, x, out):
        acc = 0
        for i in range(x.shape[0]):
            acc = m.wrap(acc + int(x[i]), "UInt16", loc("prefix_sum", "%acc2: UInt16 = add"))
            out[i] = acc
        return None

    def cumsum_inplace(m, x):
        for i in range(1, x.shape[0]):
            x[i] = m.wrap(int(x[i - 1]) + int(x[i]), "Int64", loc("prefix_sum", "%s: Int64 = add"))
        return None

    u16 = lambda v: np.array(v, dtype=np.uint16)
    i64 = lambda v: np.array(v, dtype=np.int64)
    return [
        Case("cumsum_u16_small", "cumsum_u16", [u16([1, 2, 3, 4]), u16([0] * 4)], cumsum_u16, outputs=(1,)),
        Case("cumsum_u16_wraps", "cumsum_u16", [u16([100, 200, 65000, 300, 5]), u16([0] * 5)], cumsum_u16, outputs=(1,)),
        Case("cumsum_inplace", "cumsum_inplace", [i64([5, -3, 10, 0, -100, 7])], cumsum_inplace, outputs=(0,)),
        Case("cumsum_inplace_overflow", "cumsum_inplace", [i64([I64MAX, 1, 0])], cumsum_inplace, outputs=(0,)),
    ]


# ---------------------------------------------------------------------------
# horner


@program("horner")
def _horner():
    def horner(m, x, c):
        out = []
        for xv in x:
            acc = 0.0
            for ci in c:
                acc = acc * float(xv) + float(ci)
            out.append(acc)
        return Arr("Float64", out)

    def horner32(m, x, c):
        acc = f32(0.0)
        for i in range(c.shape[0]):
            acc = acc * f32(x[1]) + c[i]
        return ("Float32", acc)

    return [
        Case("horner_broadcast", "horner", [rand_f64(5, scale=2.0), np.array([1.5, -2.0, 0.25, 3.0])], horner, ufunc=True),
        Case("horner32", "horner32", [("Float32", float(f32(0.7))), rand_f32(5)], horner32),
        Case("horner32_strided", "horner32", [("Float32", float(f32(-1.3))), rand_f32(8)[::3]], horner32),
    ]


# ---------------------------------------------------------------------------
# hashing


@program("hashing")
def _hashing():
    P = "hashing"

    def fnv1a64(m, data):
        h = 14695981039346656037
        for b in data:
            h = m.wrap((h ^ int(b)) * 1099511628211, "UInt64", loc(P, "%h2: UInt64 = mul"))
        return ("UInt64", h)

    def fmix32(m, h0):
        h = h0[1]
        mul = lambda a, k, snip: m.wrap(a * k, "UInt32", loc(P, snip))
        h ^= h >> 16
        h = mul(h, 0x85EBCA6B, "%c: UInt32 = mul")
        h ^= h >> 13
        h = mul(h, 0xC2B2AE35, "%f: UInt32 = mul")
        h ^= h >> 16
        return ("UInt32", h)

    def xorshift32(m, seed, rounds):
        x = seed[1]
        for _ in range(rounds[1]):
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
        return ("UInt32", x)

    def xorshift64_fill(m, seed, out):
        x = seed[1]
        for i in range(out.shape[0]):
            x ^= (x << 13) & U64MAX
            x ^= x >> 7
            x ^= (x << 17) & U64MAX
            out[i] = x
        return None

    # Published reference values.
    assert fnv1a64(Mode(False), b"hello world")[1] == 0x779A65E7023CD2E7
    assert fmix32(Mode(False), ("UInt32", 1))[1] == 0x514E28B7
    assert xorshift32(Mode(False), ("UInt32", 2463534242), ("Int64", 1))[1] == 723471715
    out = np.zeros(1, np.uint64)
    xorshift64_fill(Mode(False), ("UInt64", 88172645463325252), out)
    assert int(out[0]) == 8748534153485358512

    u8 = lambda b: np.frombuffer(b, dtype=np.uint8).copy()
    return [
        Case("fnv_hello", "fnv1a64", [u8(b"hello world")], fnv1a64),
        Case("fnv_empty", "fnv1a64", [np.zeros(0, np.uint8)], fnv1a64),
        Case("fmix32_zero", "fmix32", [("UInt32", 0)], fmix32),
        Case("fmix32_one", "fmix32", [("UInt32", 1)], fmix32),
        Case("fmix32_12345678", "fmix32", [("UInt32", 0x12345678)], fmix32),
        Case("xorshift32_1", "xorshift32", [("UInt32", 2463534242), ("Int64", 1)], xorshift32),
        Case("xorshift32_1000", "xorshift32", [("UInt32", 2463534242), ("Int64", 1000)], xorshift32),
        Case("xorshift64_fill", "xorshift64_fill", [("UInt64", 88172645463325252), np.zeros(6, np.uint64)], xorshift64_fill, outputs=(1,)),
    ]


# ---------------------------------------------------------------------------
# floordiv


@program("floordiv")
def _floordiv():
    P = "floordiv"

    def table(m, a, b, q, r):
        for i in range(a.shape[0]):
            for j in range(b.shape[0]):
                x, y = int(a[i]), int(b[j])
                q[i, j] = m.wrap(x // y, "Int64", None)
                r[i, j] = x % y
        return None

    def fdiv8(m, a, b):
        if b[1] == 0:
            raise Panic("division by zero", loc(P, "%q: Int8 = fdiv"))
        # MIN // -1 wraps (never traps for overflow on -O1).
        return ("Int8", wrap(a[1] // b[1], "Int8"))

    def mod8(m, a, b):
        return ("Int8", modulo(a[1], b[1], loc(P, "%r: Int8 = mod")))

    def fdiv_f(m, a, b):
        q = float(np.floor_divide(np.float64(a[1]), np.float64(b[1])))
        if b[1] != 0 and math.isfinite(a[1]):
            assert q == a[1] // b[1]
        return ("Float64", q)

    def mod_f(m, a, b):
        r = float(np.remainder(np.float64(a[1]), np.float64(b[1])))
        if b[1] != 0 and math.isfinite(a[1]):
            py = a[1] % b[1]
            assert r == py and math.copysign(1, r) == math.copysign(1, py)
        return ("Float64", r)

    def truediv(m, a, b):
        return ("Float64", float(np.true_divide(np.float64(a[1]), np.float64(b[1]))))

    def by_consts(m, x, u, out):
        x, u = x[1], u[1]
        out[:] = [x // 2, x % 2, x // 8, x % 8, x // 10, x % 10, u // 128, u % 6]
        return None

    a = np.array([-I64MAX, -7, -6, -1, 0, 1, 6, 7, I64MAX], dtype=np.int64)
    b = np.array([-3, -2, -1, 1, 2, 3, 5, I64MAX, I64MIN], dtype=np.int64)
    cases = [Case("divmod_table", "divmod_table", [a, b, np.zeros((9, 9), np.int64), np.zeros((9, 9), np.int64)], table, outputs=(2, 3))]
    for x, y in [(7, 2), (-7, 2), (7, -2), (-7, -2), (-128, 1), (-128, 2), (127, -1), (7, 0), (0, -5)]:
        cases.append(Case(f"fdiv8_{x}_{y}", "fdiv8", [("Int8", x), ("Int8", y)], fdiv8))
    # MIN // -1 wraps from -O1; what a checked build does is not pinned here.
    cases.append(Case("fdiv8_min_neg1", "fdiv8", [("Int8", -128), ("Int8", -1)], fdiv8, modes=("wrap",)))
    for x, y in [(-7, 3), (7, -3), (-128, -1), (-128, 3), (127, 127), (5, 0)]:
        cases.append(Case(f"mod8_{x}_{y}", "mod8", [("Int8", x), ("Int8", y)], mod8))
    inf = math.inf
    fpairs = [(-7.5, 2.0), (7.5, -2.0), (1.0, 0.0), (-1.0, 0.0), (0.0, 0.0), (5.0, inf), (-5.0, inf), (0.7, 0.1), (-0.0, 3.0), (0.0, -3.0), (1e300, 1e-300)]
    for k, (x, y) in enumerate(fpairs):
        cases.append(Case(f"fdiv_f_{k}", "fdiv_f", [("Float64", x), ("Float64", y)], fdiv_f))
        cases.append(Case(f"mod_f_{k}", "mod_f", [("Float64", x), ("Float64", y)], mod_f))
    for k, (x, u) in enumerate([(7, 255), (-7, 127), (-1, 128), (0, 0), (I64MIN, 5), (I64MAX, 200), (-9, 1), (12, 6)]):
        cases.append(Case(f"by_consts_{k}", "by_consts", [("Int64", x), ("UInt8", u), np.zeros(8, np.int64)], by_consts, outputs=(2,)))
    for x, y in [(7, 2), (-7, 2), (1, 3), (1, 0), (-1, 0), (0, 0), (-(2**31), -1)]:
        cases.append(Case(f"truediv_{x}_{y}", "truediv", [("Int32", x), ("Int32", y)], truediv))

    def truncating(m, a, b):
        q = abs(a[1]) // abs(b[1]) * (1 if (a[1] < 0) == (b[1] < 0) else -1)
        return ("Int32", wrap(q * 1000 + (a[1] - q * b[1]), "Int32"))

    def utruncating(m, a, b):
        return ("UInt16", wrap(a[1] // b[1] * 100 + a[1] % b[1], "UInt16"))

    for x, y in [(7, 2), (-7, 2), (7, -2), (-7, -2), (5, 7), (-5, 7), (0, -3), (-2000000, 3), (2000000, -1), (-(2**31), 2**31 - 1)]:
        cases.append(Case(f"truncating_{x}_{y}", "truncating", [("Int32", x), ("Int32", y)], truncating))
    for x, y in [(65535, 1000), (7, 3), (0, 9), (1000, 7)]:
        cases.append(Case(f"utruncating_{x}_{y}", "utruncating", [("UInt16", x), ("UInt16", y)], utruncating))
    return cases


# ---------------------------------------------------------------------------
# wrap8


@program("wrap8")
def _wrap8():
    P = "wrap8"

    def binop(dt, op, snip):
        return lambda m, a, b: (dt, m.wrap(op(a[1], b[1]), dt, loc(P, snip)))

    def unop(dt, op, snip):
        return lambda m, a: (dt, m.wrap(op(a[1]), dt, loc(P, snip)))

    def cast(dt):
        return lambda m, a: (dt, wrap(int(a[1]), dt))

    def checksum(m, x):
        s = 0
        for v in x:
            s = m.wrap(s + int(v), "UInt8", loc(P, "%s2: UInt8 = add"))
        return ("UInt8", s)

    # Cross-check wrapping against NumPy's fixed-width arithmetic.
    assert int(np.int8(100) + np.int8(100)) == wrap(200, "Int8")
    assert int(np.uint8(200) * np.uint8(2)) == wrap(400, "UInt8")
    assert int(np.array([-1], np.int8).astype(np.uint16)[0]) == wrap(-1, "UInt16")

    add8 = binop("Int8", lambda a, b: a + b, "%r: Int8 = add")
    mul8u = binop("UInt8", lambda a, b: a * b, "%r: UInt8 = mul")
    sub16 = binop("Int16", lambda a, b: a - b, "%r: Int16 = sub")
    neg8 = unop("Int8", lambda a: -a, "%r: Int8 = neg")
    abs8 = unop("Int8", abs, "%r: Int8 = abs")
    cases = []
    for x, y in [(100, 27), (100, 100), (-128, -1), (-100, -28)]:
        cases.append(Case(f"add8_{x}_{y}", "add8", [("Int8", x), ("Int8", y)], add8))
    for x, y in [(16, 16), (15, 17), (200, 2)]:
        cases.append(Case(f"mul8u_{x}_{y}", "mul8u", [("UInt8", x), ("UInt8", y)], mul8u))
    for x, y in [(-32768, 1), (1000, -2000), (32767, -1)]:
        cases.append(Case(f"sub16_{x}_{y}", "sub16", [("Int16", x), ("Int16", y)], sub16))
    for x in [-128, 5, 0, 127]:
        cases.append(Case(f"neg8_{x}", "neg8", [("Int8", x)], neg8))
        cases.append(Case(f"abs8_{x}", "abs8", [("Int8", x)], abs8))
    for x in [-1, -128, 127]:
        cases.append(Case(f"widen_{x}", "widen", [("Int8", x)], cast("UInt16")))
    for x in [300, -129, 128, -1, 2**40 + 5]:
        cases.append(Case(f"narrow_{x}", "narrow", [("Int64", x)], cast("Int8")))
    for x in [200, 127, 128]:
        cases.append(Case(f"u8_to_i8_{x}", "u8_to_i8", [("UInt8", x)], cast("Int8")))
        cases.append(Case(f"u8_to_i32_{x}", "u8_to_i32", [("UInt8", x)], cast("Int32")))
    for x in [-1, -32768, 5]:
        cases.append(Case(f"i16_to_u64_{x}", "i16_to_u64", [("Int16", x)], cast("UInt64")))
    cases.append(Case("checksum8_small", "checksum8", [np.array([1, 2, 3, 250], np.uint8)], checksum))
    cases.append(Case("checksum8_wraps", "checksum8", [rng.integers(0, 256, size=20).astype(np.uint8)], checksum))
    return cases


# ---------------------------------------------------------------------------
# satcast


@program("satcast")
def _satcast():
    nan, inf = math.nan, math.inf
    cases = []

    def satf(dt):
        return lambda m, x: (dt, sat(float(x[1]), dt))

    def add(func, in_dt, vals, kernel, tag=None):
        for k, v in enumerate(vals):
            cases.append(Case(f"{func}_{k}", func, [(in_dt, v)], kernel))

    add("f64_to_i8", "Float64", [nan, inf, -inf, 127.9, 128.0, -128.9, -129.0, -2.7, 2.7, -0.5, 1e300], satf("Int8"))
    add("f64_to_i32", "Float64", [nan, 3e9, -3e9, 2147483647.9, -2147483648.9, 1e-300, -1e-300], satf("Int32"))
    add("f64_to_i64", "Float64", [9.3e18, -9.3e18, 2.0**63, -(2.0**63), 9007199254740993.0, nan, -inf], satf("Int64"))
    add("f64_to_u8", "Float64", [-1.0, -0.9, 255.5, 256.0, nan, inf, 77.7], satf("UInt8"))
    add("f64_to_u64", "Float64", [2.0**64, -5.0, 2.0**63, nan, inf, 1.8e19], satf("UInt64"))
    add("f32_to_i16", "Float32", [40000.0, -40000.0, nan, 1.5, -32768.5, inf], satf("Int16"))

    def to_f16(m, x):
        return ("Float16", float(np.float16(np.float64(x[1]))))

    # 1 + 2**-11 + 2**-40 rounds up to 1 + 2**-10 in one step, to 1.0 through Float32.
    tricky = 1 + 2.0**-11 + 2.0**-40
    assert float(np.float16(tricky)) == 1 + 2.0**-10 and float(np.float16(np.float32(tricky))) == 1.0
    add("f64_to_f16", "Float64", [65519.99, 65520.0, 1e-8, 3e-8, 0.1, tricky, -0.0, nan, -1e6, 2049.0, 2051.0], to_f16)
    # bitcast: a float's bits as the unsigned integer of its width, and back.
    def bits_of(dt, np_float, np_uint):
        return lambda m, x: (dt, int(np.array([x[1]], np_float).view(np_uint)[0]))

    def float_of(dt, np_uint, np_float):
        return lambda m, x: (dt, float(np.array([x[1]], np_uint).view(np_float)[0]))

    add("f16_bits", "Float16", [1.0, -0.0, 65504.0, 5.960464477539063e-08, -inf, 0.333251953125], bits_of("UInt16", np.float16, np.uint16))
    add("f16_from_bits", "UInt16", [0x3C00, 0x8001, 0x7BFF, 0x7C00, 0x0400, 0xC500], float_of("Float16", np.uint16, np.float16))
    add("f32_bits", "Float32", [1.0, -2.5, 1.401298464324817e-45, inf, -0.0, 3.4028234663852886e38], bits_of("UInt32", np.float32, np.uint32))
    add("f32_from_bits", "UInt32", [0x3F800000, 0x00000001, 0xFF800000, 0x7F7FFFFF, 0x80000000], float_of("Float32", np.uint32, np.float32))
    add("f64_from_bits", "UInt64", [0x3FF0000000000000, 1, 0xFFF0000000000000, 0x8000000000000000, 0x400921FB54442D18], float_of("Float64", np.uint64, np.float64))
    add(
        "f64_exponent",
        "Float64",
        [1.0, 0.75, 1e300, 5e-324, 2.0**-1022, -8.0, 0.0],
        lambda m, x: ("Int64", ((int(np.array([x[1]]).view(np.uint64)[0]) >> 52) & 2047) - 1023),
    )
    add("f64_to_f32", "Float64", [0.1, 1e40, -1e-46, 3.4028235e38, 16777217.0, nan], lambda m, x: ("Float32", float(np.float32(x[1]))))
    add("f64_to_bool", "Float64", [0.0, -0.0, nan, 1e-300, -2.0, inf], lambda m, x: ("Bool", x[1] != 0))
    add("i64_to_bool", "Int64", [0, -5, I64MIN, 1], lambda m, x: ("Bool", x[1] != 0))
    add("bool_to_i32", "Bool", [True, False], lambda m, x: ("Int32", int(x[1])))
    add("c128_to_f64", "Complex128", [complex(1.5, -2), complex(nan, 1), complex(-0.0, 5)], lambda m, z: ("Float64", z[1].real))
    add(
        "f64_to_c64",
        "Float64",
        [0.1, 1e40, -2.5],
        lambda m, x: ("Complex64", complex(float(np.float32(x[1])), 0.0)),
    )
    add(
        "i64_to_f32",
        "Int64",
        [2**24 + 1, -(2**24 + 3), 2**62 + 2**38 + 1, I64MIN, 7],
        lambda m, x: ("Float32", float(np.float32(np.int64(x[1])))),
    )
    add(
        "u64_to_f64",
        "UInt64",
        [U64MAX, 2**53 + 1, 12345, 2**63 + 2**11],
        lambda m, x: ("Float64", float(np.float64(np.uint64(x[1])))),
    )

    def cast_all(m, x, out):
        for i in range(x.shape[0]):
            out[i] = sat(float(x[i]), "Int32")
        return None

    xs = np.array([nan, inf, -inf, 3e9, -3e9, 2.9, -2.9, -0.0])
    cases.append(Case("cast_all", "cast_all", [xs, np.zeros(8, np.int32)], cast_all, outputs=(1,)))
    return cases


# ---------------------------------------------------------------------------
# fp_rounding


@program("fp_rounding")
def _fp_rounding():
    def harmonic(t, dt):
        def k(m, n):
            acc = t(0.0)
            for i in range(1, n[1] + 1):
                acc = acc + t(1.0) / t(i)
            return (dt, acc)

        return k

    def tenths(m, n):
        tenth = f16(0.1)
        acc = f16(0.0)
        for _ in range(n[1]):
            acc = acc + tenth
        return ("Float16", acc)

    def kahan(m, x):
        s = f32(0.0)
        c = f32(0.0)
        for v in x:
            y = v - c
            t = s + y
            c = (t - s) - y
            s = t
        return ("Float32", s)

    def naive(m, x):
        s = f32(0.0)
        for v in x:
            s = s + v
        return ("Float32", s)

    def f16_ops(m, a, b):
        a, b = f16(a[1]), f16(b[1])
        return ("Float16", ((a * b + a) / b) - a)

    def fpow(m, a, b):
        return ("Float64", float(np.power(np.float64(a[1]), np.float64(b[1]))))

    def fneg_abs(m, a):
        return ("Float32", abs(-f32(a[1])))

    # The Float16 harmonic series stops growing at 7.0859375.
    assert harmonic(f16, "Float16")(None, ("Int64", 1000))[1] == f16(7.0859375)
    cases = []
    for n in [10, 100, 600, 1000]:
        cases.append(Case(f"harmonic16_{n}", "harmonic16", [("Int64", n)], harmonic(f16, "Float16")))
    for n in [10, 20000]:
        cases.append(Case(f"harmonic32_{n}", "harmonic32", [("Int64", n)], harmonic(f32, "Float32")))
    for n in [10, 1000]:
        cases.append(Case(f"sum_tenths16_{n}", "sum_tenths16", [("Int64", n)], tenths))
    small = np.array([1.0] + [1e-8] * 1000, dtype=np.float32)
    mixed = rand_f32(50, scale=1000.0)
    for name, arr in [("small", small), ("mixed", mixed)]:
        cases.append(Case(f"kahan32_{name}", "kahan32", [arr], kahan))
        cases.append(Case(f"naive32_{name}", "naive32", [arr], naive))
    for x, y in [(300.0, 300.0), (0.1, 3.0), (0.0, 0.0), (-1.5, 0.333), (1000.0, 1e-4)]:
        cases.append(Case(f"f16_ops_{x}_{y}", "f16_ops", [("Float16", float(f16(x))), ("Float16", float(f16(y)))], f16_ops))
    for k, (x, y, tol) in enumerate(
        [(2.0, 10.0, None), (2.0, 0.5, "ulps=1"), (-8.0, 1 / 3, None), (0.0, -1.0, None), (-2.0, 3.0, None), (1.0, math.nan, None), (math.nan, 0.0, None), (10.0, -2.0, "ulps=1"), (1.0001, 10000.0, "ulps=2")]
    ):
        cases.append(Case(f"fpow_{k}", "fpow", [("Float64", x), ("Float64", y)], fpow, tol=tol))
    for x in [-0.0, math.nan, -3.5, math.inf]:
        cases.append(Case(f"fneg_abs_{x}", "fneg_abs", [("Float32", x)], fneg_abs))
    return cases


# ---------------------------------------------------------------------------
# complex


def cmul_py(a, b):
    """Python's complex product: (ac - bd) + (ad + bc)j in Float64."""
    return complex(a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real)


@program("complex")
def _complex():
    nan, inf = math.nan, math.inf
    C = "Complex128"
    cases = []

    def cmul(m, a, b):
        r = cmul_py(a[1], b[1])
        assert r == a[1] * b[1] or any(math.isnan(p) for p in (r.real, r.imag))
        return (C, r)

    def cmul64(m, a, b):
        r = np.complex64(a[1]) * np.complex64(b[1])
        assert complex(r) == cmul_py(a[1], b[1])  # exact inputs
        return ("Complex64", complex(r))

    def caddsub(m, a, b):
        s = a[1] + b[1]
        d = s - b[1]
        n = -d
        return (C, s - n)

    def crand():
        return complex(float(rand_f64(1)[0]), float(rand_f64(1)[0]))

    def c32rand():
        v = rand_f32(2)
        return complex(float(v[0]), float(v[1]))

    for k, (a, b) in enumerate([(1 + 2j, 3 - 4j), (crand(), crand()), (crand(), crand()), (1e308 + 1e308j, 2 + 0j)]):
        cases.append(Case(f"cmul_{k}", "cmul", [(C, a), (C, b)], cmul))
    for k, (a, b) in enumerate([(1.5 + 2j, 0.25 - 4j), (-3 + 0.5j, 2 + 8j)]):
        cases.append(Case(f"cmul64_{k}", "cmul64", [("Complex64", a), ("Complex64", b)], cmul64))
    for k in range(2):
        cases.append(Case(f"caddsub_{k}", "caddsub", [(C, crand()), (C, crand())], caddsub))
    for k, (z, tol) in enumerate([(3 + 4j, None), (1 + 1j, "ulps=1"), (complex(-0.0, -0.0), None), (complex(inf, nan), None), (crand(), "ulps=1")]):
        cases.append(Case(f"cabs_{k}", "cabs", [(C, z)], lambda m, z: ("Float64", abs(z[1])), tol=tol))
    for k, (z, tol) in enumerate([(3 + 4j, None), (c32rand(), "ulps=1")]):
        cases.append(Case(f"cabs64_{k}", "cabs64", [("Complex64", z)], lambda m, z: ("Float32", float(np.abs(np.complex64(z[1])))), tol=tol))
    for k, (a, b) in enumerate([(1 + 1j, 2 + 0j), (1 + 2j, 0.5 + 0.25j), (2 + 0j, 0.5 + 0j), (-1 + 0j, 0.5 + 0j), (0.5 - 1.5j, -1.25 + 0.75j)]):
        cases.append(Case(f"cpow_{k}", "cpow", [(C, a), (C, b)], lambda m, a, b: (C, a[1] ** b[1]), tol="rel=1e-13"))
    cases.append(Case("cpow_zero_zero", "cpow", [(C, 0j), (C, 0j)], lambda m, a, b: (C, complex(np.power(np.complex128(a[1]), np.complex128(b[1]))))))
    for k, z in enumerate([1.5 - 2j, 0j, complex(nan, -inf)]):
        cases.append(Case(f"conj_{k}", "conj", [(C, z)], lambda m, z: (C, complex(z[1].real, -z[1].imag))))
    for k, (re_, im) in enumerate([(1.5, -2.25), (nan, inf)]):
        cases.append(Case(f"make_{k}", "make", [("Float32", re_), ("Float32", im)], lambda m, a, b: ("Complex64", complex(a[1], b[1]))))

    def ceq(m, a, b):
        return ("Int32", int(a[1] == b[1]) + 2 * int(a[1] != b[1]))

    for k, (a, b) in enumerate([(1 + 2j, 1 + 2j), (1 + 2j, 1 + 3j), (complex(nan, 0), complex(nan, 0)), (complex(0.0, 0), complex(-0.0, 0))]):
        cases.append(Case(f"ceq_{k}", "ceq", [(C, a), (C, b)], ceq))

    def csum64(m, z):
        re_, im = f32(0.0), f32(0.0)
        for v in z:
            re_ = re_ + f32(v.real)
            im = im + f32(v.imag)
        return ("Complex64", complex(float(re_), float(im)))

    zs = (rand_f32(6) + 1j * rand_f32(6)).astype(np.complex64)
    cases.append(Case("csum64", "csum64", [zs], csum64))

    def mandel(m, c, maxit):
        z = 0j
        k = 0
        while k < maxit[1]:
            if z.real * z.real + z.imag * z.imag > 4.0:
                break
            z = cmul_py(z, z) + c[1]
            k += 1
        return ("Int32", k)

    for k, (c, it) in enumerate([(0j, 50), (1 + 1j, 50), (-0.75 + 0.1j, 100), (0.3 + 0.5j, 200), (-2 + 0j, 30), (0.25 + 0j, 300)]):
        cases.append(Case(f"mandel_{k}", "mandel", [(C, c), ("Int32", it)], mandel))
    return cases


# ---------------------------------------------------------------------------
# strings


def cmp_bits(a, b):
    return ("Int64", (a == b) | (a != b) << 1 | (a < b) << 2 | (a <= b) << 3 | (a > b) << 4 | (a >= b) << 5)


@program("strings")
def _strings():
    cases = []
    for k, n in enumerate(["World", "", "Zo\u00eb \U0001f600"]):
        cases.append(Case(f"greet_{k}", "greet", [("Str", n)], lambda m, s: ("Str", "Hello, " + s[1] + "!")))
    spairs = [("abc", "abd"), ("abc", "abc"), ("ab", "abc"), ("\u00e9", "z"), ("", ""), ("Z", "a"), ("b", "abc"), ("", "a"), ("a\x00", "a"), ("\u00e9", "\u20ac"), ("\uffff", "\U00010000")]
    for k, (a, b) in enumerate(spairs):
        # UTF-8 byte order is code-point order.
        assert (a < b) == (a.encode() < b.encode())
        cases.append(Case(f"str_cmp_{k}", "str_cmp", [("Str", a), ("Str", b)], lambda m, a, b: cmp_bits(a[1], b[1])))
    bpairs = [(b"\x00\xff", b"\x01"), (b"abc", b"ab"), (b"", b""), (b"\x80", b"\x7f"), (b"abc", b"abc"), (b"", b"\x00")]
    for k, (a, b) in enumerate(bpairs):
        cases.append(Case(f"bytes_cmp_{k}", "bytes_cmp", [("Bytes", a), ("Bytes", b)], lambda m, a, b: cmp_bits(a[1], b[1])))
    for k, (a, b) in enumerate([(b"ab", b"\x00cd"), (b"", b"")]):
        cases.append(Case(f"bjoin_{k}", "bjoin", [("Bytes", a), ("Bytes", b)], lambda m, a, b: ("Bytes", a[1] + b"\x00\xff" + b[1])))
    for k, (a, b) in enumerate([("apple", "banana"), ("\u00e9", "e"), ("same", "same"), ("", "\x00")]):
        cases.append(Case(f"max_str_{k}", "max_str", [("Str", a), ("Str", b)], lambda m, a, b: ("Str", a[1] if a[1] >= b[1] else b[1])))

    def label(m, x):
        return ("Str", "neg\u00e9" if x[1] < 0 else ("z\u00e9ro" if x[1] == 0 else 'pos\t"+"'))

    for x in [-3, 0, 5]:
        cases.append(Case(f"label_{x}", "label", [("Int64", x)], label))
    # One to four UTF-8 bytes per code point, and a NUL.
    texts = ["", "numpy", "\u00e9", "Zo\u00eb \U0001f600", "\u20acuro", "a\x00b", "\U0010ffff\u07ff\u0800\x7f", "na\u00efve \u20ac \U0001d11e"]
    for k, t in enumerate(texts):
        cases.append(Case(f"str_len_{k}", "str_len", [("Str", t)], lambda m, s: ("Int64", len(s[1]) + 1000 * len(s[1].encode()))))
    for k, (a, b) in enumerate([("caf", "\u00e9"), ("", ""), ("\U0001f600", "\u20ac!")]):
        cases.append(Case(f"concat_len_{k}", "concat_len", [("Str", a), ("Str", b)], lambda m, a, b: ("Int64", len(a[1] + b[1]))))
    for k, (t, i) in enumerate([("abc", 0), ("\u00e9", 0), ("\u00e9", 1), ("Zo\u00eb \U0001f600", 7), ("x\x00", 1)]):
        cases.append(Case(f"str_byte_{k}", "str_byte", [("Str", t), ("Int64", i)], lambda m, s, i: ("UInt8", s[1].encode()[i[1]])))
    for k, (b, i) in enumerate([(b"\x00\xff\x80", 1), (b"\x00\xff\x80", 2), (b"PNG", 0)]):
        cases.append(Case(f"bytes_byte_{k}", "bytes_byte", [("Bytes", b), ("Int64", i)], lambda m, b, i: ("Int64", b[1][i[1]] + 1000 * len(b[1]))))
    return cases


# ---------------------------------------------------------------------------
# bool_logic


@program("bool_logic")
def _bool_logic():
    cases = []
    B = [False, True]
    for a in B:
        for b in B:
            for c in B:
                cases.append(
                    Case(
                        f"majority_{int(a)}{int(b)}{int(c)}",
                        "majority",
                        [("Bool", a), ("Bool", b), ("Bool", c)],
                        lambda m, a, b, c: ("Bool", (a[1] + b[1] + c[1]) >= 2),
                    )
                )
            cases.append(Case(f"implies_{int(a)}{int(b)}", "implies", [("Bool", a), ("Bool", b)], lambda m, a, b: ("Bool", (not a[1]) or b[1])))
            cases.append(Case(f"xor_eq_{int(a)}{int(b)}", "xor_eq", [("Bool", a), ("Bool", b)], lambda m, a, b: ("Int32", 10 * int(a[1] != b[1]) + int(a[1] == b[1]))))
    mask = rng.integers(0, 2, size=13).astype(np.bool_)
    cases.append(Case("count_true", "count_true", [mask], lambda m, x: ("Int64", int(np.count_nonzero(x)))))
    cases.append(Case("count_true_empty", "count_true", [np.zeros(0, np.bool_)], lambda m, x: ("Int64", 0)))

    def mask_in_range(m, x, lo, hi, out):
        for i in range(x.shape[0]):
            out[i] = bool(f32(lo[1]) <= x[i]) and not bool(x[i] > f32(hi[1]))
        return None

    xs = np.array([math.nan, -1, 0, 0.5, 1, 1.5, math.inf, -math.inf], dtype=np.float32)
    cases.append(Case("mask_in_range", "mask_in_range", [xs, ("Float32", 0.0), ("Float32", 1.0), np.zeros(8, np.bool_)], mask_in_range, outputs=(3,)))
    for x in [math.nan, 1.0, math.inf]:
        cases.append(Case(f"float_ne_nan_{x}", "float_ne_nan", [("Float64", x)], lambda m, x: ("Bool", x[1] != x[1])))
    return cases


# ---------------------------------------------------------------------------
# bits


@program("bits")
def _bits():
    P = "bits"
    cases = []
    for x in [0, 1, 0xFFFFFFFF, 0x80000001, 0x12345678]:
        cases.append(Case(f"popcount32_{x:x}", "popcount32", [("UInt32", x)], lambda m, x: ("Int32", bin(x[1]).count("1"))))
    for x in [0, U64MAX, 0x8000000000000001, 0x0123456789ABCDEF, int(rng.integers(0, 2**63))]:
        cases.append(Case(f"popcount64_{x:x}", "popcount64", [("UInt64", x)], lambda m, x: ("UInt64", bin(x[1]).count("1"))))
    for x in [1, 0b10110000, 255, 0, 0b01100101]:
        cases.append(Case(f"rev8_{x}", "rev8", [("UInt8", x)], lambda m, x: ("UInt8", int(format(x[1], "08b")[::-1], 2))))
    for x in [0, 1, 2**63, 2**40, U64MAX]:
        cases.append(Case(f"clz64_{x:x}", "clz64", [("UInt64", x)], lambda m, x: ("Int64", 64 - x[1].bit_length())))
    for x in [0, -1, 5, -(2**31), 2**31 - 1]:
        cases.append(Case(f"inv32_{x}", "inv32", [("Int32", x)], lambda m, x: ("Int32", ~x[1])))
    for x in [0, 0x0F, 255]:
        cases.append(Case(f"inv8u_{x}", "inv8u", [("UInt8", x)], lambda m, x: ("UInt8", wrap(~x[1], "UInt8"))))

    def sar16(m, x, n):
        return ("Int16", x[1] >> shift_count(n[1], loc(P, "%r: Int16 = shr")))

    def shl16(m, x, n):
        return ("Int16", m.wrap(x[1] << shift_count(n[1], loc(P, "%r: Int16 = shl")), "Int16", None))

    for x, n in [(-5, 1), (-32768, 15), (100, 3), (-1, 0), (5, -1)]:
        cases.append(Case(f"sar16_{x}_{n}", "sar16", [("Int16", x), ("Int16", n)], sar16))
    for x, n in [(-5, 3), (1, 14), (3, -2), (0, 15)]:
        cases.append(Case(f"shl16_{x}_{n}", "shl16", [("Int16", x), ("Int16", n)], shl16))
    for a, b in [(65535, 65533), (0, 1), (100, 201), (65535, 65535)]:
        cases.append(Case(f"avg_u16_{a}_{b}", "avg_u16", [("UInt16", a), ("UInt16", b)], lambda m, a, b: ("UInt16", (a[1] + b[1]) // 2)))
    for a, b in [(0x00F0, 0x0F0F), (-1, 0), (0, -1)]:
        cases.append(Case(f"bor_inv16_{a}_{b}", "bor_inv16", [("Int16", a), ("Int16", b)], lambda m, a, b: ("Int16", a[1] | ~b[1])))
    return cases


# ---------------------------------------------------------------------------
# collatz


def collatz_steps(n):
    s = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        s += 1
    return s


@program("collatz")
def _collatz():
    P = "collatz"
    cases = []
    known = {1: 0, 27: 111, 97: 118, 837799: 524}
    for n, s in known.items():
        assert collatz_steps(n) == s
    for n in [1, 27, 97, 837799, 63728127]:
        cases.append(Case(f"steps_{n}", "steps", [("Int64", n)], lambda m, n: ("Int64", collatz_steps(n[1]))))

    def longest(m, limit, out):
        best, arg = 0, 1
        for i in range(1, limit[1]):
            s = collatz_steps(i)
            if s > best:
                best, arg = s, i
        out[0], out[1] = arg, best
        return None

    cases.append(Case("longest_1000", "longest", [("Int64", 1000), np.zeros(2, np.int64)], longest, outputs=(1,)))

    def peak_u32(m, n0):
        n = peak = n0[1]
        where = loc(P, "%t: UInt32 = mul")
        while n > 1:
            if n % 2:
                n = m.wrap(m.wrap(n * 3, "UInt32", where) + 1, "UInt32", where)
            else:
                n = n // 2
            peak = max(peak, n)
        return ("UInt32", peak)

    for n in [27, 1, 0x55555555]:
        cases.append(Case(f"peak_u32_{n}", "peak_u32", [("UInt32", n)], peak_u32))
    return cases


# ---------------------------------------------------------------------------
# panics


def bounds(i, n, axis, where):
    if not 0 <= i < n:
        raise Panic(f"index out of bounds: index {i} is out of range for axis {axis} with size {n}", where)


@program("panics")
def _panics():
    P = "panics"
    cases = []

    def get(m, a, i):
        bounds(i[1], a.shape[0], 0, loc(P, "%v: Float64 = index.load"))
        return ("Float64", float(a[i[1]]))

    arr = np.array([1.5, 2.5, 3.5, 4.5])
    for i in [2, 4, -1]:
        cases.append(Case(f"get_{i}", "get", [arr, ("Int64", i)], get))

    def get2(m, a, i, j):
        where = loc(P, "%v: Int32 = index.load")
        bounds(i[1], a.shape[0], 0, where)
        bounds(j[1], a.shape[1], 1, where)
        return ("Int32", int(a[i[1], j[1]]))

    arr2 = np.arange(6, dtype=np.int32).reshape(2, 3) * 7 - 10
    for i, j in [(1, 2), (1, 3), (2, 0), (0, -2)]:
        cases.append(Case(f"get2_{i}_{j}", "get2", [arr2, ("Int64", i), ("Int64", j)], get2))

    def put(m, a, i, v):
        bounds(i[1], a.shape[0], 0, loc(P, "index.store %a[%i], %v"))
        a[i[1]] = v[1]
        return None

    for i in [1, 3]:
        cases.append(Case(f"put_{i}", "put", [np.zeros(3, np.uint8), ("Int64", i), ("UInt8", 7)], put, outputs=(0,)))

    def idiv(m, a, b):
        if b[1] == 0:
            raise Panic("division by zero", loc(P, "%q: Int64 = fdiv"))
        return ("Int64", a[1] // b[1])

    def imod(m, a, b):
        return ("UInt32", modulo(a[1], b[1], loc(P, "%r: UInt32 = mod")))

    def ipow_k(m, a, b):
        return ("Int64", ipow(a[1], b[1], "Int64", m, loc(P, "%r: Int64 = pow")))

    for a, b in [(7, 0), (-7, 2)]:
        cases.append(Case(f"idiv_{a}_{b}", "idiv", [("Int64", a), ("Int64", b)], idiv))
    for a, b in [(7, 0), (7, 3)]:
        cases.append(Case(f"imod_{a}_{b}", "imod", [("UInt32", a), ("UInt32", b)], imod))
    for a, b in [(3, 4), (2, -1), (3, 41), (7, 10), (-3, 5), (2, 0), (0, 0)]:
        cases.append(Case(f"ipow_{a}_{b}", "ipow", [("Int64", a), ("Int64", b)], ipow_k))

    def zero_power(a, b, where):
        if a == 0 and b != 0 and (b.imag != 0 or b.real < 0):
            raise Panic("zero to a negative or complex power", where)

    def zpow(m, a, b):
        zero_power(a[1], b[1], loc(P, "%r: Complex128 = pow"))
        return ("Complex128", a[1] ** b[1])

    for k, (a, b) in enumerate([(0j, -1 + 0j), (0j, 1j), (-0.0 + 0j, -2.5 + 0j), (0j, 2 + 0j), (0j, 0j), (2 + 0j, -1 + 0j)]):
        cases.append(
            Case(f"zpow_{k}", "zpow", [("Complex128", a), ("Complex128", b)], zpow, tol="rel=1e-13")
        )

    def zpow64(m, a, b):
        zero_power(a[1], b[1], loc(P, "%r: Complex64 = pow"))
        return ("Complex64", complex(np.complex64(complex(a[1]) ** complex(b[1]))))

    for k, (a, b) in enumerate([(0j, -1 + 0j), (0j, 2 + 0j)]):
        cases.append(Case(f"zpow64_{k}", "zpow64", [("Complex64", a), ("Complex64", b)], zpow64))

    def alloc_len(m, n):
        if n[1] < 0:
            raise Panic("negative allocation length", loc(P, "%buf: Float64[] = alloc"))
        return ("Int64", n[1])

    for n in [3, 0, -1]:
        cases.append(Case(f"alloc_len_{n}", "alloc_len", [("Int64", n)], alloc_len))

    unreach_fail = loc(P, "unreachable !loc")

    def must_be_positive(m, x):
        if x[1] > 0:
            return ("Int64", x[1])
        raise Panic("entered unreachable code", unreach_fail)

    for x in [5, 0]:
        cases.append(Case(f"must_be_positive_{x}", "must_be_positive", [("Int64", x)], must_be_positive))

    def isqrt(m, x):
        if x[1] < 0:
            raise Panic("entered unreachable code", loc(P, "unreachable", after="func checked_sqrt_floor", exact=True))
        return ("Int64", math.isqrt(x[1]))

    for x in [17, 0, 1, 99, -1]:
        cases.append(Case(f"isqrt_{x}", "checked_sqrt_floor", [("Int64", x)], isqrt))
    return cases


# ---------------------------------------------------------------------------
# loop_bounds


@program("loop_bounds")
def _loop_bounds():
    P = "loop_bounds"
    cases = []
    # Its own generator, so that the other programs' values stay as they are.
    local = np.random.default_rng(20261201)

    def r64(n):
        return np.round(local.uniform(-10.0, 10.0, size=n), 3)

    def saxpy_len_x(m, a, x, y):
        for i in range(x.shape[0]):
            bounds(i, x.shape[0], 0, loc(P, "%xi: Float32 = index.load"))
            bounds(i, y.shape[0], 0, loc(P, "%yi: Float32 = index.load"))
            y[i] = f32(a[1]) * x[i] + y[i]
        return None

    for ny in [6, 4, 0]:
        x = local.uniform(-10.0, 10.0, size=6).astype(np.float32)
        y = local.uniform(-10.0, 10.0, size=ny).astype(np.float32)
        cases.append(Case(f"saxpy_len_x_{ny}", "saxpy_len_x", [("Float32", 1.5), x, y], saxpy_len_x, outputs=(2,)))

    def stencil3(m, x, out, lo):
        for i in range(lo[1], out.shape[0]):
            bounds(i - 1, x.shape[0], 0, loc(P, "%l: Float64 = index.load"))
            bounds(i, x.shape[0], 0, loc(P, "%c: Float64 = index.load"))
            bounds(i + 1, x.shape[0], 0, loc(P, "%r: Float64 = index.load"))
            out[i] = x[i - 1] + 2.0 * x[i] + x[i + 1]
        return None

    for nx, nout, lo in [(9, 8, 1), (8, 8, 1), (9, 8, 0), (9, 8, 9)]:
        x = r64(nx)
        cases.append(
            Case(f"stencil3_{nx}_{nout}_{lo}", "stencil3", [x, np.zeros(nout), ("Int64", lo)], stencil3, outputs=(1,))
        )

    def fill_step3(m, x, start, n):
        for i in range(start[1], n[1], 3):
            sq = m.wrap(i * i, "Int64", loc(P, "%sq: Int64 = mul"))
            bounds(i, x.shape[0], 0, loc(P, "index.store %x[%i], %sq"))
            x[i] = sq
        return None

    for start, n in [(0, 10), (1, 12), (2, 11), (-3, 5)]:
        cases.append(
            Case(
                f"fill_step3_{start}_{n}",
                "fill_step3",
                [np.zeros(10, np.int64), ("Int64", start), ("Int64", n)],
                fill_step3,
                outputs=(0,),
            )
        )

    def row_sum(m, a, r, n):
        acc = 0.0
        for j in range(n[1]):
            where = loc(P, "%v: Float64 = index.load %a[%r, %j]")
            bounds(r[1], a.shape[0], 0, where)
            bounds(j, a.shape[1], 1, where)
            acc += a[r[1], j]
        return ("Float64", acc)

    a = r64((3, 5))
    for r, n in [(1, 5), (2, 3), (1, 7), (3, 2), (3, 0), (-1, 1)]:
        cases.append(Case(f"row_sum_{r}_{n}", "row_sum", [a, ("Int64", r), ("Int64", n)], row_sum))

    def every_third(m, x, n):
        acc = 0.0
        for i in range(n[1]):
            if i % 3 == 0:
                bounds(i, x.shape[0], 0, loc(P, "%v: Float64 = index.load %x[%i]"))
                acc += x[i]
        return ("Float64", acc)

    x = r64(5)
    for n in [4, 6, 7, 9]:
        cases.append(Case(f"every_third_{n}", "every_third", [x, ("Int64", n)], every_third))

    # Views that are not contiguous along the indexed axis: a loop versioned
    # on unit strides must take its fallback for them.
    for name, step_x, step_y in [("x_step2", 2, 1), ("y_reversed", 1, -1), ("both", 3, -2)]:
        x = local.uniform(-10.0, 10.0, size=6 * abs(step_x)).astype(np.float32)[::step_x]
        y = local.uniform(-10.0, 10.0, size=6 * abs(step_y)).astype(np.float32)[::step_y]
        cases.append(Case(f"saxpy_len_x_{name}", "saxpy_len_x", [("Float32", 1.5), x, y], saxpy_len_x, outputs=(2,)))
    a = r64((5, 3)).T
    for r, n in [(1, 5), (2, 6)]:
        cases.append(Case(f"row_sum_transposed_{r}_{n}", "row_sum", [a, ("Int64", r), ("Int64", n)], row_sum))
    return cases


# ---------------------------------------------------------------------------
# stats


@program("stats")
def _stats():
    cases = []

    def reverse_into(m, x, out):
        out[:] = x[::-1]
        return None

    x = rand_f64(5)
    cases.append(Case("reverse_into", "reverse_into", [x, np.zeros(5)], reverse_into, outputs=(1,)))

    def running_mean(m, x, out):
        acc = f32(0.0)
        for i in range(x.shape[0]):
            acc = acc + x[i]
            out[i] = acc / f32(i + 1)
        return None

    cases.append(Case("running_mean", "running_mean", [rand_f32(6), np.zeros(6, np.float32)], running_mean, outputs=(1,)))

    def mean(xs):
        s = 0.0
        for v in xs:
            s = s + float(v)
        return s / float(len(xs))

    def stddev(m, x):
        mu = mean(x)
        s = 0.0
        for v in x:
            d = float(v) - mu
            s = s + d * d
        return ("Float64", math.sqrt(s / float(len(x))))

    def norm2(m, x):
        s = 0.0
        for v in x:
            s = s + float(v) * float(v)
        return ("Float64", math.sqrt(s))

    xs = rand_f64(7)
    cases.append(Case("mean", "mean", [xs], lambda m, x: ("Float64", mean(x))))
    cases.append(Case("stddev", "stddev", [xs], stddev))
    cases.append(Case("norm2", "norm2", [xs], norm2))
    cases.append(Case("norm2_345", "norm2", [np.array([3.0, 4.0])], norm2))

    def hypot(m, a, b):
        a2, b2 = np.broadcast_arrays(a, b)
        out = [[math.sqrt(float(p) * float(p) + float(q) * float(q)) for p, q in zip(r1, r2)] for r1, r2 in zip(a2, b2)]
        return Arr("Float64", out)

    cases.append(Case("hypot_broadcast", "hypot", [rand_f64(3, 1), rand_f64(4)], hypot, ufunc=True))
    return cases


# ---------------------------------------------------------------------------
# unsigned


@program("unsigned")
def _unsigned():
    P = "unsigned"
    cases = []
    for a, b in [(0, 1), (5, 3), (65535, 65535)]:
        cases.append(Case(f"usub16_{a}_{b}", "usub16", [("UInt16", a), ("UInt16", b)], lambda m, a, b: ("UInt16", m.wrap(a[1] - b[1], "UInt16", loc(P, "%r: UInt16 = sub")))))
    for a, b in [(2**63, 1), (1, U64MAX), (U64MAX, U64MAX), (2**63, 2**63 - 1)]:
        cases.append(Case(f"ucmp64_{a}_{b}", "ucmp64", [("UInt64", a), ("UInt64", b)], lambda m, a, b: ("Int32", (a[1] > b[1]) - (a[1] < b[1]))))

    def udivmod(m, a, b, out):
        if b[1] == 0:
            raise Panic("division by zero", loc(P, "%q: UInt32 = fdiv"))
        out[0], out[1] = a[1] // b[1], a[1] % b[1]
        return None

    for a, b in [(2**32 - 1, 10), (0, 5), (7, 0)]:
        cases.append(Case(f"udivmod32_{a}_{b}", "udivmod32", [("UInt32", a), ("UInt32", b), np.zeros(2, np.uint32)], udivmod, outputs=(2,)))
    for a, b in [(3, 25), (3, 5), (0, 0), (1, 4000000000)]:
        cases.append(Case(f"upow32_{a}_{b}", "upow32", [("UInt32", a), ("UInt32", b)], lambda m, a, b: ("UInt32", ipow(a[1], b[1], "UInt32", m, loc(P, "%r: UInt32 = pow")))))
    ip16 = lambda m, a, b: ("Int16", ipow(a[1], b[1], "Int16", m, loc(P, "%r: Int16 = pow")))
    # 181**2 fits and 182**2 does not; 3**10 and (-3)**11 leave the range
    # on a product, 200**2 on the square the product needs: checked, each
    # panics.
    for a, b in [(-3, 7), (7, 0), (2, -1), (181, 2), (182, 2), (3, 10), (-3, 11), (200, 2), (-1, 32767)]:
        cases.append(Case(f"ipow16_{a}_{b}", "ipow16", [("Int16", a), ("Int16", b)], ip16))
    # The result fits; whether squaring past it traps when checked is the
    # implementation's business, so only the wrapping result is pinned.
    cases.append(Case("ipow16_-2_15", "ipow16", [("Int16", -2), ("Int16", 15)], ip16, modes=("wrap",)))
    for a, b in [(U64MAX, 2**32 - 1), (48, 18), (0, 5), (5, 0)]:
        cases.append(Case(f"gcd64_{a}_{b}", "gcd64", [("UInt64", a), ("UInt64", b)], lambda m, a, b: ("UInt64", math.gcd(a[1], b[1]))))

    def favg(m, a, b):
        s = m.wrap(a[1] + b[1], "Int16", loc(P, "%s: Int16 = add"))
        return ("Int16", s // 2)

    for a, b in [(-3, 0), (32767, 1), (-7, -8), (5, 6)]:
        cases.append(Case(f"i16_floor_avg_{a}_{b}", "i16_floor_avg", [("Int16", a), ("Int16", b)], favg))
    return cases


# ---------------------------------------------------------------------------
# stencil


@program("stencil")
def _stencil():
    def heat(m, x, out):
        mm, nn = x.shape
        for j in range(nn):
            for i in range(mm):
                c = x[i, j]
                if i == 0 or i == mm - 1 or j == 0 or j == nn - 1:
                    out[i, j] = c
                    continue
                s3 = ((x[i - 1, j] + x[i + 1, j]) + x[i, j - 1]) + x[i, j + 1]
                lap = s3 - f32(4.0) * c
                out[i, j] = c + f32(0.25) * lap
        return None

    x = np.asfortranarray(rand_f32(5, 4))
    return [Case("heat_step", "heat_step", [x, np.zeros((5, 4), np.float32, order="F")], heat, outputs=(1,))]


# ---------------------------------------------------------------------------
# views


@program("views")
def _views():
    P = "views"
    cases = []
    oob = "view out of bounds: it reaches outside its base array"

    def view_loc(snippet):
        return loc(P, snippet)

    def row_wsum(m, a, i):
        i = i[1]
        if not 0 <= i < a.shape[0]:
            if a.shape[0] == 0 and a.shape[1] > 0:
                raise Panic("view out of bounds: the base array is empty", view_loc("%row: Float64[]Shape[?] = view"))
            raise Panic(oob, view_loc("%row: Float64[]Shape[?] = view"))
        acc = 0.0
        for j, x in enumerate(a[i]):
            acc = acc + float(x) * float(j + 1)
        return ("Float64", acc)

    c = rand_f64(3, 4)
    f = np.asfortranarray(rand_f64(3, 4))
    t = rand_f64(4, 3).T
    rs = rand_f64(5, 8)[::-2, 1::3]
    assert rs.strides[0] < 0
    def row_wsum_inbounds(m, a, i):
        i = i[1]
        if not 0 <= i < a.shape[0]:
            return ("Float64", 0.0)
        return ("Float64", sum(float(x) * float(j + 1) for j, x in enumerate(a[i])))

    rows = [
        ("row_c", c, 1),
        ("row_f", f, 2),
        ("row_transposed", t, 0),
        ("row_reversed_stepped", rs, 2),
        ("row_past_end", c, 3),
        ("row_negative", c, -1),
        ("row_of_no_columns", np.zeros((3, 0)), 2),
        ("row_of_no_rows", np.zeros((0, 4)), 0),
    ]
    for name, a, i in rows:
        cases.append(Case(name, "row_wsum", [a, ("Int64", i)], row_wsum))
    for name, a, i in rows:
        cases.append(Case(name + "_inbounds", "row_wsum_inbounds", [a, ("Int64", i)], row_wsum_inbounds))

    def slice_wsum(m, x, lo, count, step):
        lo, count, step = lo[1], count[1], step[1]
        at = view_loc("%v: Int32[]Shape[?] = view")
        if count < 0:
            raise Panic(f"invalid view: size {count} of axis 0 is negative", at)
        idx = [lo + k * step for k in range(count)]
        if idx and not all(0 <= i < x.shape[0] for i in idx):
            raise Panic(oob, at)
        # The oracle's view: NumPy's basic slicing where it applies.
        if count and step:
            stop = lo + count * step
            v = x[lo : (stop if stop >= 0 else None) : step]
            assert list(v) == [x[i] for i in idx]
        acc = 0
        for k, i in enumerate(idx):
            acc += int(x[i]) * (k + 1)
        return ("Int64", acc)

    x = rng.integers(-1000, 1000, size=8).astype(np.int32)
    stepped = rng.integers(-1000, 1000, size=24).astype(np.int32)[::3]
    for name, arr, lo, count, step in [
        ("slice_step2", x, 1, 4, 2),
        ("slice_reversed", x, 7, 8, -1),
        ("slice_reversed_step", x, 6, 3, -2),
        ("slice_of_stepped_input", stepped, 2, 3, 2),
        ("slice_step0", x, 5, 3, 0),
        ("slice_empty_anywhere", x, 100, 0, 7),
        ("slice_negative_count", x, 0, -1, 1),
        ("slice_past_end", x, 5, 4, 1),
        ("slice_reversed_past_start", x, 2, 4, -1),
    ]:
        cases.append(Case(name, "slice_wsum", [arr, ("Int64", lo), ("Int64", count), ("Int64", step)], slice_wsum))

    def fill_transposed(m, a):
        tt = a.T
        for j in range(tt.shape[0]):
            for i in range(tt.shape[1]):
                tt[j, i] = 100 * i + j
        return None

    cases.append(Case("fill_transposed", "fill_transposed", [np.zeros((3, 4), np.int64)], fill_transposed, outputs=(0,)))
    sub = rng.integers(-9, 9, size=(6, 5)).astype(np.int64)[::2, ::-1]
    cases.append(Case("fill_transposed_strided", "fill_transposed", [sub], fill_transposed, outputs=(0,)))

    def block_elem(m, a, r0, c0):
        r0, c0 = r0[1], c0[1]
        if not (0 <= r0 and r0 + 2 <= a.shape[0] and 0 <= c0 and c0 + 3 <= a.shape[1]):
            raise Panic(oob, view_loc("%blk: Float64[]Shape[?, ?] = view"))
        return ("Float64", float(a[r0 : r0 + 2, c0 : c0 + 3][1][2]))

    blk = rand_f64(4, 5)
    cases.append(Case("block_elem", "block_elem", [blk, ("Int64", 1), ("Int64", 2)], block_elem))
    cases.append(Case("block_elem_fortran", "block_elem", [np.asfortranarray(blk), ("Int64", 2), ("Int64", 0)], block_elem))
    cases.append(Case("block_past_end", "block_elem", [blk, ("Int64", 3), ("Int64", 0)], block_elem))

    def reshape_wsum(m, x, mm, nn):
        mm, nn = mm[1], nn[1]
        if mm * nn > x.shape[0] and mm > 0 and nn > 0:
            raise Panic(oob, view_loc("%v: Float64[]Shape[?, ?] = view"))
        v = x[: mm * nn].reshape(mm, nn)
        assert v.size == 0 or np.shares_memory(v, x)
        acc = 0.0
        for i in range(mm):
            for j in range(nn):
                acc = acc + float(v[i, j]) * float(100 * i + j)
        return ("Float64", acc)

    xs = rand_f64(12)
    for name, mm, nn in [("reshape_3x4", 3, 4), ("reshape_4x3", 4, 3), ("reshape_5x3", 5, 3), ("reshape_0x9", 0, 9)]:
        cases.append(Case(name, "reshape_wsum", [xs, ("Int64", mm), ("Int64", nn)], reshape_wsum))

    def odd_elems(m, x):
        return Arr("Float64", x[1::2])

    cases.append(Case("odd_elems", "odd_elems", [rand_f64(7)], odd_elems))
    cases.append(Case("odd_elems_of_reversed", "odd_elems", [rand_f64(6)[::-1]], odd_elems))
    cases.append(Case("odd_elems_empty", "odd_elems", [rand_f64(1)], odd_elems))

    def squares_rev(m, n):
        return Arr("Int64", np.array([i * i for i in range(n[1])], np.int64)[::-1])

    def squares_rev_tail(m, n):
        if n[1] == 0:
            raise Panic("invalid view: size -1 of axis 0 is negative", view_loc("%v: Int64[]Shape[?] = view %r"))
        return Arr("Int64", squares_rev(m, n).values[1:])

    for n in [6, 0]:
        cases.append(Case(f"squares_rev_{n}", "squares_rev", [("Int64", n)], squares_rev))
    for n in [5, 1, 0]:
        cases.append(Case(f"squares_rev_tail_{n}", "squares_rev_tail", [("Int64", n)], squares_rev_tail))

    def from_byte(m, x, off):
        off = off[1]
        at = view_loc("%v: Float64[]Shape[?] = view %x, %off")
        if off % 8:
            raise Panic("invalid view: the byte offset and strides must be multiples of the element size 8", at)
        if not 0 <= off // 8 < x.shape[0]:
            raise Panic(oob, at)
        return ("Float64", float(x[off // 8]))

    xb = rand_f64(4)
    for off in [16, 4, 32, -8]:
        cases.append(Case(f"from_byte_{off}", "from_byte", [xb, ("Int64", off)], from_byte))
    return cases


# ---------------------------------------------------------------------------


def render_program(name):
    cases = PROGRAMS[name]()
    out = [
        f"# Expected results for {name}.pir, generated by oracle.py; do not edit.",
        "# Format: README.md in this directory.",
        "",
    ]
    for c in cases:
        for block in render_case(c):
            out.append(block)
            out.append("")
    return "\n".join(out)


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for name in PROGRAMS:
        text = render_program(name)
        path = os.path.join(HERE, name + ".expected")
        if check:
            try:
                with open(path, encoding="utf-8") as f:
                    if f.read() != text:
                        stale.append(name)
            except FileNotFoundError:
                stale.append(name)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    missing = sorted(f[:-4] for f in os.listdir(HERE) if f.endswith(".pir") and f[:-4] not in PROGRAMS)
    if missing:
        print("programs without an oracle:", ", ".join(missing))
        return 1
    if stale:
        print("stale .expected files:", ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
