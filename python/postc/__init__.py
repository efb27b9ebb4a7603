"""postc: compile POST Python (type-annotated Python over scalars and NumPy
arrays) to native code, in-process, and call it with NumPy arrays.

    mod = postc.compile("kernels.py")          # a Module: functions, ufuncs
    mod.saxpy(np.float32(2), x, y)

    @postc.jit                                 # compiles its module on first call
    def f(x: Float64) -> Float64: ...

The rest of this module is also pure Python that runs POST Python under
CPython unchanged: the attribute decorators (`gpu`, `kernel`, `cold`,
`noinline`) return the function itself; `ufunc` returns a callable with
NumPy ufunc semantics implemented in plain Python (broadcasting over the
loop dimensions, one call of the body per iteration); `empty(n, DTYPE)`
returns a fresh 1-D array (zero-filled here so CPython runs are
deterministic; POST code must write before it reads). Without the compiled
extension, or with `POSTC_DISABLE_JIT=1`, `compile` and `jit` give these
pure-Python functions.
"""

import copyreg
import functools
import inspect
import os
import pickle
import re
import sys
import threading
import time

import numpy as np

import postyp
from postyp import ArrayType, DType, OutType, dtype_of

from . import _source

__all__ = [
    "ufunc", "gpu", "kernel", "cold", "noinline", "jit", "empty",
    "thread_idx", "block_idx", "block_dim", "grid_dim", "launch",
    "shared", "sync_threads", "atomic_add", "compile", "CompileError", "Module",
    "cache_dir", "jit_disabled", "prange", "set_num_threads", "get_num_threads",
]

# `for i in prange(n)`: compiled, the iterations may run on several threads
# (docs/python.md); under CPython it is `range`, which defines the result.
prange = range

try:
    from . import _native
except ImportError:  # the pure-Python parts alone (a source checkout)
    _native = None


def _cpu_count():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _default_num_threads():
    """What the runtime starts with: `POSTC_NUM_THREADS` (its leading
    digits, at most 256), else the CPUs this process may run on."""
    digits = re.match(r"[0-9]*", os.environ.get("POSTC_NUM_THREADS", "")).group()
    n = int(digits) if digits else 0
    return min(n, 256) if n > 0 else _cpu_count()


# Read once, as Numba reads NUMBA_NUM_THREADS: the default and the most
# `set_num_threads` accepts.
_MAX_THREADS = _default_num_threads()
_num_threads = _MAX_THREADS
_num_threads_lock = threading.Lock()


def set_num_threads(n):
    """Runs later `prange` loops on `n` threads (1 to `POSTC_NUM_THREADS`,
    else the CPUs the process may use), in every compiled module loaded and
    every one loaded later. Process-wide: every Python thread's calls use
    it. Results do not depend on it (docs/python.md)."""
    global _num_threads
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError("The number of threads specified must be an integer")
    n = int(n)
    if not 1 <= n <= _MAX_THREADS:
        raise ValueError(f"The number of threads must be between 1 and {_MAX_THREADS}")
    with _num_threads_lock:
        if _native is not None:
            _native.set_num_threads(n)
        _num_threads = n


def get_num_threads():
    """The number of threads `prange` loops run on: the last
    `set_num_threads`, else `POSTC_NUM_THREADS`, else the CPU count."""
    return _num_threads

if _native is not None:
    CompileError = _native.CompileError
else:
    class CompileError(Exception):
        """A POST module did not compile; the message holds the located
        diagnostics."""


class _Coords:
    """A kernel's launch coordinates on one register (`thread_idx.x`), per
    host thread: each emulated GPU thread is a Python thread."""

    def __init__(self):
        self._local = threading.local()

    def set(self, xyz):
        self._local.xyz = xyz

    x = property(lambda self: self._local.xyz[0])
    y = property(lambda self: self._local.xyz[1])
    z = property(lambda self: self._local.xyz[2])


thread_idx = _Coords()
block_idx = _Coords()
block_dim = _Coords()
grid_dim = _Coords()

# The running block: its barrier and its shared arrays by call site.
_block = threading.local()
_atomic = threading.Lock()


def shared(array_type):
    """The block-shared array of this call site (`shared(Float32[16, 16])`),
    zeroed at the start of each block."""
    frame = sys._getframe(1)
    key = (frame.f_code, frame.f_lasti)
    state = _block.state
    with state["lock"]:
        if key not in state["shared"]:
            state["shared"][key] = np.zeros(array_type.dims, dtype=array_type.dtype.np)
        return state["shared"][key]


def sync_threads():
    """Waits until every thread of the block has reached a barrier."""
    _block.state["barrier"].wait()


def atomic_add(a, *index_and_value):
    """Adds the value to `a[index]` in one step; returns the old element."""
    *index, value = index_and_value
    index = tuple(int(i) for i in index)
    with _atomic:
        old = a[index]
        a[index] = old + a.dtype.type(value)
        return old


def launch(fn, grid, block, *args):
    """Runs a `@kernel` over a grid: blocks one after another, the threads
    of a block together (Python threads meeting at `sync_threads`)."""
    n = block[0] * block[1] * block[2]
    for bz in range(grid[2]):
        for by in range(grid[1]):
            for bx in range(grid[0]):
                state = {"barrier": threading.Barrier(n), "shared": {}, "lock": threading.Lock()}
                errors = []

                def thread(tx, ty, tz, bx=bx, by=by, bz=bz, state=state, errors=errors):
                    _block.state = state
                    grid_dim.set(grid)
                    block_dim.set(block)
                    block_idx.set((bx, by, bz))
                    thread_idx.set((tx, ty, tz))
                    try:
                        fn(*args)
                    except BaseException as e:  # reported after the block
                        errors.append(e)
                        state["barrier"].abort()

                threads = [
                    threading.Thread(target=thread, args=(tx, ty, tz))
                    for tz in range(block[2])
                    for ty in range(block[1])
                    for tx in range(block[0])
                ]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                if errors:
                    raise errors[0]


def _mark(fn, attr):
    attrs = getattr(fn, "__postc_attrs__", ())
    try:
        fn.__postc_attrs__ = tuple(attrs) + (attr,)
    except AttributeError:
        pass
    return fn


def cold(fn):
    """Mark a function as rarely called (an error path)."""
    return _mark(fn, "cold")


def noinline(fn):
    """Keep the function out of line."""
    return _mark(fn, "noinline")


def kernel(fn):
    """A GPU kernel entry point (runs on the host here)."""
    return _mark(fn, "kernel")


def jit(fn=None, *, opt=3, boundscheck=None, fastmath=False, cache=True, backend="llvm", include=(),
        verbose=None, debug=False):
    """`@jit` / `@jit(opt=..., boundscheck=..., fastmath=..., cache=...)`:
    compiles the function and the POST functions it calls (in its file,
    other files or cells) on its first call, and calls the compiled
    function from then on. The rest of the file stays ordinary Python; the
    globals the function reads are frozen when it compiles, as Numba
    freezes them. Without the compiled extension, or with
    `POSTC_DISABLE_JIT=1`, the function itself."""
    options = _options(opt=opt, boundscheck=boundscheck, fastmath=fastmath, cache=cache, backend=backend,
                       include=include, verbose=verbose, debug=debug)
    if fn is None:
        return lambda f: jit(f, **options)
    if _native is None or jit_disabled():
        return fn
    return _Jit(fn, options)


def _options(*, opt=3, boundscheck=None, fastmath=False, cache=True, backend="llvm", include=(), verbose=None,
             debug=False):
    """The build options, checked once (a bad level is a ValueError at the
    decorator, not at the first call)."""
    opt = int(opt)
    if opt not in (0, 1, 2, 3):
        raise ValueError(f"invalid optimisation level {opt} (levels: 0, 1, 2, 3)")
    return {"opt": opt, "boundscheck": None if boundscheck is None else bool(boundscheck),
            "fastmath": bool(fastmath), "cache": bool(cache), "backend": str(backend),
            "include": tuple(os.fspath(i) for i in include), "verbose": verbose, "debug": bool(debug)}


class _Jit(_native.Dispatcher if _native is not None else object):
    """A function compiled, with the POST functions it calls, on its first
    call. Calls go through the native dispatcher it derives from, which
    calls `_compile()` once and then the compiled function directly. It
    pickles as its source cut (`_source.Unit`) and options, so a process
    that unpickles it compiles the same code, or finds it in its cache."""

    def __init__(self, fn, options, unit=None):
        self.py_func = fn
        self._options = options
        self._unit = unit
        self._compiled = None
        self._lock = threading.Lock()
        if fn is not None:
            functools.update_wrapper(self, fn)

    def _cut(self):
        if self._unit is None:
            try:
                self._unit = _source.collect(self.py_func)
            except _source.SourceError as e:
                raise CompileError(str(e)) from None
        return self._unit

    def _compile(self):
        with self._lock:
            if self._compiled is None:
                unit = self._cut()
                if unit.generic:
                    self._compiled = _Specializations(self, unit)
                else:
                    module = _build_unit(unit, self._options, self.__qualname__)
                    self._compiled = getattr(module, unit.entry)
            return self._compiled

    def inspect(self, what="asm"):
        """The code this function compiles to: `"pir"` (the IR after the
        level's passes), `"llvm-ir"` or `"asm"`; of a function with
        parameters left unannotated, the code of its latest call's
        argument types."""
        unit = self._cut()
        if unit.generic:
            compiled = self._compiled
            if compiled is None or compiled.latest is None:
                raise ValueError(f"`{self.__name__}` is compiled for the argument types of each call: call it first")
            unit = compiled.latest
        return _native.listing(unit.root, what, **_native_options(self._options, unit))

    def __reduce__(self):
        return (_jit_from_unit, (self._cut(), self._options, self.__name__, self.__qualname__,
                                 getattr(self, "__doc__", None)))

    def __repr__(self):
        state = "compiled" if self._compiled is not None else "not compiled yet"
        return f"<postc.jit {self.__name__} ({state})>"


class _Specializations:
    """The compiled code of a `@jit` function whose parameters are not all
    annotated, as Numba compiles one per argument types: each call's
    arguments give the annotations of those parameters (`_annotation`),
    and each distinct list of them is compiled once, from the cut with
    its `def` line annotated so (`_source.specialize`)."""

    def __init__(self, jit, unit):
        self._jit = jit
        self._unit = unit
        py = jit.py_func if jit.py_func is not None else _source.load_functions(unit)
        self._signature = inspect.signature(py)
        self._compiled = {}
        self._lock = threading.Lock()
        self.latest = None

    def __call__(self, *args, **kwargs):
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        key = tuple(_annotation(self._jit.__name__, name, bound.arguments[name]) for name in self._unit.generic)
        f = self._compiled.get(key)
        if f is None:
            with self._lock:
                f = self._compiled.get(key)
                if f is None:
                    unit = _source.specialize(self._unit, dict(zip(self._unit.generic, key)))
                    module = _build_unit(unit, self._jit._options, self._jit.__qualname__)
                    f = self._compiled[key] = getattr(module, unit.entry)
                    self.latest = unit
        return f(*args, **kwargs)


def _annotation(fn, name, value):
    """The annotation (over `_postc_postyp`) a value passed for the
    unannotated parameter `name` gives it: a Python number its NumPy
    type (`int` Int64, `float` Float64, as Numba types them), a NumPy
    number its dtype, an array its dtype, axes and layout (`Out[...]`
    when writable: the function may write it), a tuple of numbers a tuple
    of them, a dtype itself (`np.dtype(np.float64)`, `np.float64`) the
    dtype fixed (`type[Float64]`)."""
    P = "_postc_postyp."
    # A dtype (`np.dtype(np.float64)`, `np.float64`, `float`): the
    # parameter is that dtype, fixed when compiled (`type[Float64]`).
    if isinstance(value, np.dtype) or (isinstance(value, type) and (issubclass(value, np.generic) or
                                                                    value in (bool, int, float, complex))):
        try:
            d = _source._NUMPY_SCALARS.get(np.dtype(value).type)
        except TypeError:
            d = None
        if d is not None:
            return f"type[{P}{d}]"
    if isinstance(value, np.generic):
        d = _source._NUMPY_SCALARS.get(type(value))
        if d is not None:
            return P + d
    for t, d in ((bool, "Bool"), (int, "Int64"), (float, "Float64"), (complex, "Complex128")):
        if isinstance(value, t):
            return P + d
    if isinstance(value, np.ndarray) and value.ndim > 0:
        d = _source._NUMPY_SCALARS.get(value.dtype.type)
        if d is not None:
            axes = [":"] * value.ndim
            if value.flags.c_contiguous:
                axes[-1] = "::1"
            elif value.flags.f_contiguous:
                axes[0] = "::1"
            text = f"{P}{d}[{', '.join(axes)}]"
            return f"{P}Out[{text}]" if value.flags.writeable else text
    if isinstance(value, tuple) and value and all(isinstance(v, (int, float, np.integer, np.floating)) and
                                                  not isinstance(v, (bool, np.bool_)) for v in value):
        return f"tuple[{', '.join(_annotation(fn, name, v) for v in value)}]"
    raise TypeError(f"{fn}() cannot be compiled for {type(value).__name__} argument {name!r}: a parameter without "
                    "annotation takes a number, a NumPy array of numbers, a tuple of numbers or a dtype; annotate it "
                    "for anything else")


def _jit_from_unit(unit, options, name, qualname, doc):
    """A `@jit` function unpickled: its Python function is its cut run
    under CPython, made when first asked for."""
    if _native is None or jit_disabled():
        return _source.load_functions(unit)
    j = _Jit(None, options, unit)
    j.__name__, j.__qualname__, j.__doc__ = name, qualname, doc
    j.__wrapped__ = None
    return j


def _native_options(options, unit=None):
    """`_native.compile`'s keyword arguments for `options` (and a cut)."""
    cache = cache_dir() if options.get("cache", True) else _private_cache()
    kw = {"opt": options["opt"], "backend": options["backend"], "include": list(options["include"]),
          "cache_dir": cache, "bounds_checks": options["boundscheck"], "fast_math": options["fastmath"],
          "debug": options.get("debug", False)}
    if unit is not None:
        kw["also"] = list(unit.files)[1:]
        kw["overlay"] = dict(unit.files)
    return kw


_PRIVATE_CACHE = None


def _private_cache():
    """The cache of `cache=False` builds: this process's own, removed when
    it exits."""
    global _PRIVATE_CACHE
    if _PRIVATE_CACHE is None:
        import tempfile

        _PRIVATE_CACHE = tempfile.TemporaryDirectory(prefix="postc-")
    return _PRIVATE_CACHE.name


def _verbosity(options):
    v = options.get("verbose")
    if v is None:
        env = os.environ.get("POSTC_VERBOSE", "")
        return True if env not in ("", "0") else None
    return bool(v)


class _Watch:
    """One daemon thread that says on standard error when a compile has
    run for a second, and ends when no compile is running."""

    def __init__(self):
        self._cv = threading.Condition()
        self._due = {}  # token -> (deadline, what)
        self._thread = None

    def start(self, what):
        token = object()
        with self._cv:
            self._due[token] = (time.monotonic() + _NOTICE_AFTER, what)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="postc-compile-notice", daemon=True)
                self._thread.start()
            self._cv.notify()
        return token

    def stop(self, token):
        with self._cv:
            self._due.pop(token, None)

    def _run(self):
        with self._cv:
            while True:
                if not self._due:
                    # Gone when idle: while any other thread exists, every
                    # compiled call hands the GIL over.
                    self._thread = None
                    return
                token, (deadline, what) = min(self._due.items(), key=lambda kv: kv[1][0])
                left = deadline - time.monotonic()
                if left > 0:
                    self._cv.wait(left)
                    continue
                del self._due[token]
                print(f"postc: compiling {what} ...", file=sys.stderr, flush=True)


_WATCH = _Watch()

# Seconds a compile runs before the notice (and the timing line at its end).
_NOTICE_AFTER = 1.0


def _timed_build(what, options, build):
    """Runs `build()` (a native compile); says what it does on standard
    error: each phase's time when verbose, and when it takes over a second
    (unless `verbose=False`), that it is compiling and then how long it
    took."""
    verbose = _verbosity(options)
    tokens = []

    def on_miss():  # code generation starts: a compile that may take a while
        if verbose is not False:
            tokens.append(_WATCH.start(what))

    start = time.perf_counter()
    try:
        library, cached, exports, phases = build(on_miss)
    finally:
        for token in tokens:
            _WATCH.stop(token)
    took = time.perf_counter() - start
    if verbose or (verbose is None and took > _NOTICE_AFTER):
        detail = ", ".join(f"{name} {secs * 1e3:.1f} ms" for name, secs in phases)
        how = "from the cache" if cached else "compiled"
        print(f"postc: {what}: {how} in {took * 1e3:.1f} ms ({detail})", file=sys.stderr, flush=True)
    return library, cached, exports


def _build_unit(unit, options, what):
    """The Module of a cut, compiled (or from the cache) and loaded."""
    kw = _native_options(options, unit)
    library, cached, exports = _timed_build(what, options, lambda on_miss: _native.compile(unit.root, on_miss=on_miss, **kw))
    name = _source.module_name(unit.root)
    return _module(name, unit.root, library, cached, exports, ("unit", unit, options))


def gpu(fn=None, *, fallback=False):
    """`@gpu` or `@gpu(fallback=True)`: offload to the GPU; runs on the host
    under CPython."""
    if fn is None:
        def deco(f):
            return _mark(f, "gpu(fallback)" if fallback else "gpu")
        return deco
    return _mark(fn, "gpu")


def empty(n, dtype):
    """A fresh 1-D array of `n` elements of `dtype` (zero-filled here)."""
    d = dtype_of(dtype)
    if d is None or d.np is None:
        raise TypeError(f"empty: not an array dtype: {dtype!r}")
    n = int(n)
    if n < 0:
        raise ValueError("empty: negative length")
    a = np.zeros(n, dtype=d.np)
    if _EMPTY_FILL is not None:
        a[...] = _EMPTY_FILL(d.np)
    return a


# Test hook: when set to a function of the NumPy dtype, `empty` fills new
# arrays with its value instead of zeros (the oracle uses it to catch reads
# of elements that were never written).
_EMPTY_FILL = None


# ---------------------------------------------------------------------------
# ufuncs

_SIG_OPERAND = re.compile(r"\(\s*([A-Za-z_][A-Za-z_0-9]*(?:\s*,\s*[A-Za-z_][A-Za-z_0-9]*)*)?\s*\)")


def parse_signature(sig):
    """'(m,k),(k,n)->(m,n)' -> ([['m','k'],['k','n']], [['m','n']])."""
    if not isinstance(sig, str) or "->" not in sig:
        raise ValueError(f"bad ufunc signature {sig!r}")
    lhs, rhs = sig.replace(" ", "").split("->", 1)

    def side(text):
        ops = []
        pos = 0
        while pos < len(text):
            m = _SIG_OPERAND.match(text, pos)
            if not m:
                raise ValueError(f"bad ufunc signature {sig!r}")
            ops.append([d for d in (m.group(1) or "").split(",") if d])
            pos = m.end()
            if pos < len(text):
                if text[pos] != ",":
                    raise ValueError(f"bad ufunc signature {sig!r}")
                pos += 1
        return ops

    ins, outs = side(lhs), side(rhs)
    if not ins or not outs:
        raise ValueError(f"bad ufunc signature {sig!r}")
    return ins, outs


class UFunc:
    """A POST ufunc. With the compiled extension it compiles on its first
    use into a real `numpy.ufunc` (`compiled()`), which every call and
    attribute (`reduce`, `outer`, `types`, …) then goes to; without it, or
    with `POSTC_DISABLE_JIT=1`, it runs under CPython, one call of the body
    per iteration, with NumPy's broadcasting."""

    def __init__(self, fn, signature=None, options=None, types=None, parallel=False):
        self._options = options if options is not None else _options()
        self.parallel = bool(parallel)
        self._compiled = None
        self._unit = None
        self._lock = threading.Lock()
        self.py_func = fn
        self.__name__ = fn.__name__
        self.__qualname__ = getattr(fn, "__qualname__", fn.__name__)
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__wrapped__ = fn
        self._declared_signature = signature
        ann = dict(fn.__annotations__)
        ret = ann.pop("return", None)
        names = list(fn.__code__.co_varnames[: fn.__code__.co_argcount])
        self.params = [(p, ann.get(p)) for p in names]
        # Dtype signatures (`["f8(f8,f8)", "f4(f4,f4)"]`): one loop each,
        # the function's own annotations aside.
        self.type_signatures = None if types is None else [_type_signature(fn.__name__, t) for t in types]
        self._types_given = None if types is None else list(types)
        if self.type_signatures is not None:
            for params, _ in self.type_signatures:
                if len(params) != len(names):
                    raise TypeError(f"@ufunc {fn.__name__}: a signature has {len(params)} inputs, "
                                    f"the function {len(names)} parameters")
            first_params, first_ret = self.type_signatures[0]
            self.params = [(p, getattr(postyp, t)) for p, t in zip(names, first_params)]
            ret = getattr(postyp, first_ret)
        if signature is None:
            # Elementwise: scalar parameters, one scalar result.
            for p, a in self.params:
                if dtype_of(a) is None:
                    raise TypeError(f"@ufunc {fn.__name__}: parameter {p} must be a scalar")
            if dtype_of(ret) is None:
                raise TypeError(f"@ufunc {fn.__name__}: needs a scalar return type")
            signature = ",".join("()" for _ in self.params) + "->()"
        self.core_signature = signature
        ins, outs = parse_signature(signature)
        self.core_in = ins
        self.core_out = outs
        self.returns = len(outs) == 1 and outs[0] == []
        self.nin = len(ins)
        self.nout = len(outs)
        nparams = self.nin + (0 if self.returns else self.nout)
        if nparams != len(self.params):
            raise TypeError(f"@ufunc {fn.__name__}: signature {signature!r} needs {nparams} parameters, "
                            f"the function has {len(self.params)}")
        self.ret_dtype = dtype_of(ret) if self.returns else None
        if self.returns and self.ret_dtype is None:
            raise TypeError(f"@ufunc {fn.__name__}: the output of {signature!r} is returned; annotate its dtype")

    def __repr__(self):
        return f"<postc ufunc {self.__name__} {self.core_signature!r}>"

    def _call_typed(self, args):
        """A ufunc of dtype signatures under CPython: the first signature
        every operand casts to safely, as NumPy picks a loop."""
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__} takes {self.nin} operands, got {len(args)}")
        python_scalar = [np.ndim(a) == 0 and not isinstance(a, (np.generic, np.ndarray)) for a in args]
        given = [np.min_scalar_type(a) if p else np.asarray(a).dtype for a, p in zip(args, python_scalar)]

        def exact(wanted):  # the operands' own dtypes (a Python number has none)
            return all(g == w and not p for g, w, p in zip(given, wanted, python_scalar))

        def safe(wanted):
            return all(np.can_cast(g, w, "safe") for g, w in zip(given, wanted))

        for fits in (exact, safe):
            for params, ret in self.type_signatures:
                wanted = [np.dtype(getattr(postyp, t).np) for t in params]
                if fits(wanted):
                    ops = [np.asarray(a, dtype=w) for a, w in zip(args, wanted)]
                    out = np.vectorize(self.py_func, otypes=[getattr(postyp, ret).np])(*ops)
                    return out[()] if np.ndim(out) == 0 else out
        raise TypeError(f"ufunc '{self.__name__}' not supported for the input types")

    @property
    def signature(self):
        """The core signature of a generalized ufunc, None for an
        elementwise one (as NumPy's `ufunc.signature`)."""
        generalized = any(self.core_in) or any(self.core_out)
        return self.core_signature if generalized else None

    def compiled(self):
        """The `numpy.ufunc` this ufunc compiles to (compiled on the first
        call, then kept)."""
        u = self._compiled
        if u is None:
            with self._lock:
                if self._compiled is None:
                    units = self._cuts(CompileError)
                    modules = [_build_unit(unit, self._options, self.__qualname__) for unit in units]
                    parts = [getattr(m, unit.entry) for m, unit in zip(modules, units)]
                    if self.parallel:
                        # The same loops, run on each library's thread pool.
                        parts = [_native.parallel_ufunc(m.library, p) for m, p in zip(modules, parts)]
                    if self.type_signatures is None:
                        self._compiled = parts[0]
                    else:
                        self._compiled = _native.merge_ufuncs(self.__name__, self.__doc__, parts)
                u = self._compiled
        return u

    def _cuts(self, error):
        """The cut of each loop: one, or one per dtype signature."""
        if self._unit is None:
            try:
                if self.type_signatures is None:
                    self._unit = [_source.collect(self.py_func, ufunc=self._declared_signature)]
                else:
                    self._unit = [_source.collect(self.py_func, variant=v) for v in self.type_signatures]
            except _source.SourceError as e:
                raise error(str(e)) from None
        return self._unit

    def _native(self):
        return _native is not None and not jit_disabled()

    def __getattr__(self, name):
        # NumPy's ufunc attributes and methods, of the compiled ufunc.
        if name.startswith("_") or name in ("py_func", "params", "core_signature", "core_in", "core_out", "parallel"):
            raise AttributeError(name)
        if self._native():
            return getattr(self.compiled(), name)
        raise AttributeError(f"{self.__name__}: `{name}` needs the compiled ufunc (the extension is "
                             "missing or POSTC_DISABLE_JIT is set)")

    def __reduce__(self):
        return (_ufunc_from_cuts, (self._cuts(pickle.PicklingError), self._options, self._types_given, self.parallel))

    def _param_dtype(self, i):
        a = self.params[i][1]
        if isinstance(a, OutType):
            a = a.inner
        if isinstance(a, ArrayType):
            return a.dtype
        d = dtype_of(a)
        if d is None:
            raise TypeError(f"{self.__name__}: parameter {self.params[i][0]} has no dtype")
        return d

    def __call__(self, *args, **kwargs):
        if self._native():
            return self.compiled()(*args, **kwargs)
        if kwargs:
            raise TypeError(f"{self.__name__}: keyword arguments need the compiled ufunc")
        if self.type_signatures is not None:
            return self._call_typed(args)
        nargs = self.nin + (0 if self.returns else self.nout)
        if len(args) != nargs:
            raise TypeError(f"{self.__name__} takes {nargs} operands, got {len(args)}")
        cores = self.core_in + ([] if self.returns else self.core_out)
        ops = []
        for i, a in enumerate(args):
            d = self._param_dtype(i)
            if i >= self.nin:
                if not isinstance(a, np.ndarray) or a.dtype != np.dtype(d.np):
                    raise TypeError(f"{self.__name__}: output operand {i} must be a {d.name} array")
                ops.append(a)  # written in place
            else:
                ops.append(np.asarray(a, dtype=d.np))
        # Core dimension sizes, and each operand's loop shape.
        sizes = {}
        loops = []
        for i, (op, core) in enumerate(zip(ops, cores)):
            if op.ndim < len(core):
                raise ValueError(f"{self.__name__}: operand {i} has {op.ndim} dimensions, "
                                 f"its core needs {len(core)}")
            split = op.ndim - len(core)
            for name, n in zip(core, op.shape[split:]):
                if sizes.setdefault(name, n) != n:
                    raise ValueError(f"{self.__name__}: core dimension {name} mismatch: {sizes[name]} vs {n}")
            loops.append(op.shape[:split])
        for core in self.core_out:
            for name in core:
                if name not in sizes:
                    raise ValueError(f"{self.__name__}: output core dimension {name} is not given by an input")
        shape = np.broadcast_shapes(*loops) if loops else ()
        for i in range(self.nin, len(ops)):
            if loops[i] != shape:
                raise ValueError(f"{self.__name__}: output operand {i} has loop shape {loops[i]}, expected {shape}")
        result = np.zeros(shape, dtype=self.ret_dtype.np) if self.returns else None
        for idx in np.ndindex(*shape):
            call = []
            for op, lp, core in zip(ops, loops, cores):
                k = len(shape) - len(lp)
                sub = tuple(0 if lp[j] == 1 else idx[k + j] for j in range(len(lp)))
                if core:
                    v = op[sub] if sub else op  # a view of the core dims
                else:
                    v = op[sub] if sub else op[()]  # a NumPy scalar
                call.append(v)
            r = self.py_func(*call)
            if self.returns:
                result[idx] = r
            elif r is not None:
                raise TypeError(f"{self.__name__}: a ufunc with output operands returns None")
        if self.returns:
            return result[()] if result.ndim == 0 else result
        return None


def ufunc(arg=None, *, parallel=False, **options):
    """`@ufunc` (elementwise, dtypes from the annotations),
    `@ufunc("(n),(n)->()")` (generalized) or `@ufunc(["f8(f8,f8)",
    "f4(f4,f4)"])` (elementwise, one loop per dtype signature, as Numba's
    `@vectorize`), with `jit`'s options (`@ufunc(opt=2, fastmath=True)`).
    `parallel=True` splits the outer loop of a large call across the
    threads of `set_num_threads`, with the serial ufunc's results."""
    if not isinstance(parallel, bool):
        raise TypeError(f"ufunc: parallel is True or False, not {parallel!r}")
    if callable(arg):
        return UFunc(arg, None, _options(**options), parallel=parallel)
    checked = _options(**options)
    if isinstance(arg, (list, tuple)):
        if not arg or not all(isinstance(t, str) for t in arg):
            raise TypeError("ufunc takes a core signature string or a list of dtype signature strings")
        return lambda fn: UFunc(fn, None, checked, types=list(arg), parallel=parallel)
    if arg is not None and not isinstance(arg, str):
        raise TypeError("ufunc takes a core signature string or a list of dtype signature strings")

    def deco(fn):
        return UFunc(fn, arg, checked, parallel=parallel)

    return deco


def _type_signature(name, text):
    """`"f8(f8, f8)"`, `"float64(float64, float64)"` or
    `"Float64(Float64, Float64)"` -> (postyp parameter dtypes, result)."""
    m = re.fullmatch(r"\s*([A-Za-z_][A-Za-z_0-9]*)\s*\((.*)\)\s*", text)
    if not m:
        raise ValueError(f"@ufunc {name}: bad dtype signature {text!r} (write it as \"f8(f8, f8)\")")
    args = [a.strip() for a in m.group(2).split(",")] if m.group(2).strip() else []
    return [_dtype_name(name, a, text) for a in args], _dtype_name(name, m.group(1), text)


def _dtype_name(name, t, text):
    d = getattr(postyp, t, None)
    if isinstance(d, DType) and d.np is not None:
        return t
    try:
        scalar = np.dtype({"int": "int64", "float": "float64", "complex": "complex128"}.get(t, t)).type
    except TypeError:
        scalar = None
    found = _source._NUMPY_SCALARS.get(scalar)
    if found is None:
        raise ValueError(f"@ufunc {name}: unknown dtype {t!r} in {text!r}")
    return found


def _ufunc_from_cuts(units, options, types, parallel=False):
    """A ufunc unpickled: rebuilt from its cuts."""
    fn = _source.load_functions(units[0])
    signature = None
    if isinstance(fn, UFunc):
        signature = fn._declared_signature
        fn = fn.py_func
    u = (UFunc(fn, None, options, types=types, parallel=parallel) if types is not None
         else UFunc(fn, signature, options, parallel=parallel))
    u._unit = units
    return u


# ---------------------------------------------------------------------------
# compiling

def jit_disabled():
    """Whether `POSTC_DISABLE_JIT` asks for the pure-Python functions."""
    return os.environ.get("POSTC_DISABLE_JIT", "") not in ("", "0")


def cache_dir():
    """Where compiled libraries are kept: `$POSTC_CACHE_DIR`, else
    `$XDG_CACHE_HOME/postc`, else `~/.cache/postc`."""
    d = os.environ.get("POSTC_CACHE_DIR")
    if d:
        return d
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "postc")


class Module:
    """A compiled POST module: its exported functions and ufuncs are
    attributes. `library` is the shared library (None for the pure-Python
    fallback) and `cached` whether it came from the cache. It pickles as
    what it was compiled from (a path or the source text, and the options):
    unpickling compiles that again, or finds it in the cache."""

    def __init__(self, name, path, library, cached, exports, recipe=None):
        self.__name__ = name
        self.path = path
        self.library = library
        self.cached = cached
        self._recipe = recipe
        self._exports = dict(exports)
        for k, v in self._exports.items():
            if _module_attribute(k):
                continue  # reached as m[k]: see _module()
            setattr(self, k, v)

    def __getitem__(self, name):
        """An export by name, also one whose name is a Module attribute
        (`m["path"]`)."""
        try:
            return self._exports[name]
        except KeyError:
            raise KeyError(f"module {self.__name__} exports no {name!r}") from None

    def __contains__(self, name):
        return name in self._exports

    def exports(self):
        """The exported functions and ufuncs by name."""
        return dict(self._exports)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._exports))

    def __repr__(self):
        how = f"compiled to {self.library}" if self.library else "pure Python"
        return f"<postc.Module {self.__name__} from {self.path!r} ({how})>"

    def __reduce__(self):
        if self._recipe is None:
            raise pickle.PicklingError(f"{self!r} was not made by postc.compile or @jit")
        return (_from_recipe, (self._recipe,))

    def inspect(self, what="asm"):
        """The code of the module: `"pir"` (the IR after the level's
        passes), `"llvm-ir"` or `"asm"`."""
        if self._recipe is None or _native is None:
            raise ValueError(f"{self!r} has no compiled code to show")
        kind, source, options = self._recipe
        if kind == "unit":
            return _native.listing(source.root, what, **_native_options(options, source))
        return _native.listing(self.path, what, **_native_options(options))


# What each loaded library was compiled from, so that its functions and
# ufuncs pickle as that recipe and a name: library path -> recipe, and
# id(ufunc) -> (ufunc, recipe, name). A library's exports are made once per
# process (`_LOADED`), so these grow with the libraries loaded, which are
# never unloaded.
_LOADED = {}
_RECIPES = {}
_UFUNC_RECIPES = {}


# A Module's own attributes: an export of one of these names is reached
# as `m[name]` only.
_MODULE_ATTRIBUTES = frozenset(
    ["path", "library", "cached", "inspect", "exports", "_exports", "_recipe"])


def _module_attribute(name):
    """Whether an export's name is taken by the Module itself: its own
    attributes and Python's special `__x__` names (a private `__helper` is
    an attribute like any other)."""
    return name in _MODULE_ATTRIBUTES or (len(name) > 4 and name.startswith("__") and name.endswith("__"))


def _module(name, path, library, cached, exports, recipe):
    """The Module of a loaded library; a library loaded before gives the
    same function and ufunc objects."""
    known = _LOADED.get(library)
    clash = sorted(k for k in dict(exports) if _module_attribute(k))
    if known is None and clash:
        import warnings

        warnings.warn(f"module {name}: {', '.join(clash)} {'is' if len(clash) == 1 else 'are'} also "
                      f"postc.Module attribute{'s' if len(clash) > 1 else ''}: reach "
                      f"{'it' if len(clash) == 1 else 'them'} as m[{clash[0]!r}]", stacklevel=3)
    if known is None:
        known = _LOADED[library] = dict(exports)
        _RECIPES[library] = recipe
        for k, v in known.items():
            if isinstance(v, np.ufunc):
                _UFUNC_RECIPES[id(v)] = (v, recipe, k)
    return Module(name, path, library, cached, known, recipe)


def _from_recipe(recipe):
    kind, source, options = recipe
    if kind == "unit":
        if _native is None or jit_disabled():
            fn = _source.load_functions(source)
            return Module(source.entry, source.root, None, False, {source.entry: fn}, recipe)
        return _build_unit(source, options, source.entry)
    return compile(source, **{k: v for k, v in options.items()})


def _load_export(recipe, name):
    """A function or ufunc unpickled: its module compiled (or found in the
    cache), then the export."""
    return getattr(_from_recipe(recipe), name)


def _reduce_function(f):
    recipe = _RECIPES.get(f.library)
    if recipe is None:
        raise pickle.PicklingError(f"{f!r}: its library was not loaded by postc.compile or @jit")
    return (_load_export, (recipe, f.__name__))


_NUMPY_UFUNC_REDUCE = copyreg.dispatch_table.get(np.ufunc)


def _reduce_ufunc(u):
    entry = _UFUNC_RECIPES.get(id(u))
    if entry is not None and entry[0] is u:
        return (_load_export, (entry[1], entry[2]))
    if _NUMPY_UFUNC_REDUCE is not None:
        return _NUMPY_UFUNC_REDUCE(u)
    return u.__name__  # NumPy's own ufuncs pickle as a global name


copyreg.pickle(np.ufunc, _reduce_ufunc)
if _native is not None:
    copyreg.pickle(_native.Function, _reduce_function)


def _is_source(text):
    return "\n" in text or not text.endswith((".py", ".pir"))


def _write_source(text, cache):
    """A source string as a file of the cache (content-addressed, written
    atomically), so that diagnostics and panics can name it."""
    import hashlib
    import tempfile

    digest = hashlib.sha256(text.encode()).hexdigest()
    pir = any(line.startswith("module ") for line in text.splitlines()[:1])
    d = os.path.join(cache, "sources", digest[:2], digest[2:])
    path = os.path.join(d, "source.pir" if pir else "source.py")
    if not os.path.isfile(path):
        os.makedirs(d, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".write-")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        mask = os.umask(0o022)  # read back at once: mkstemp's files are private
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    return path


def compile(path_or_source, *, opt=3, backend="llvm", include=(), boundscheck=None, fastmath=False, cache=True,
            verbose=None, debug=False):
    """Compiles a POST module (a `.py` or `.pir` path, or the source text
    itself) and the POST modules it imports; returns a `Module` whose
    attributes are the exported functions and ufuncs (real NumPy ufuncs).

    `opt` is the optimisation level (0-3: integer overflow panics at 0;
    3 by default, as Numba's),
    `include` directories where imports are looked for after the importing
    file's own directory, `boundscheck=False` drops bounds checks (on by
    default), `fastmath=True` lets float arithmetic be reassociated and
    contracted, `cache=False` keeps the library out of the shared cache,
    `verbose=True` (or `POSTC_VERBOSE=1`) prints each phase's time,
    `debug=True` adds DWARF (gdb and perf show the `.py` lines).
    Raises `CompileError` with the located diagnostics. Libraries are
    cached (`cache_dir()`), keyed by the text of every file read, the
    options, the target and the compiler build. With `POSTC_DISABLE_JIT=1`
    (or without the compiled extension) a `.py` module is imported and its
    pure-Python functions returned, ufuncs as `numpy.vectorize` objects."""
    options = _options(opt=opt, boundscheck=boundscheck, fastmath=fastmath, cache=cache, backend=backend,
                       include=include, verbose=verbose, debug=debug)
    include = list(options["include"])
    if isinstance(path_or_source, os.PathLike) or not _is_source(path_or_source):
        path = os.path.abspath(os.fspath(path_or_source))
        if not os.path.isfile(path):
            raise FileNotFoundError(f"postc.compile: no such file: {path}")
        origin = path
    else:
        path = None
        origin = path_or_source
    if _native is None or jit_disabled():
        if path is None:
            path = _write_source(path_or_source, cache_dir())
        module = _python_module(path, include)
        module._recipe = ("compile", origin, options)
        return module
    if path is None:
        path = _write_source(path_or_source, cache_dir())
    kw = _native_options(options)
    name = os.path.splitext(os.path.basename(path))[0]
    library, cached, exports = _timed_build(name, options, lambda on_miss: _native.compile(path, on_miss=on_miss, **kw))
    return _module(name, path, library, cached, exports, ("compile", origin, options))


def _python_module(path, include):
    """The pure-Python functions of a POST Python file, as a Module."""
    if not path.endswith(".py"):
        raise CompileError(f"{path}: a .pir module has no pure-Python functions to run "
                           "(POSTC_DISABLE_JIT is set or the compiled extension is missing)")
    name = os.path.splitext(os.path.basename(path))[0]
    import hashlib
    import importlib.util
    import inspect

    unique = f"_postc_py_{hashlib.sha256(path.encode()).hexdigest()[:12]}_{name}"
    spec = importlib.util.spec_from_file_location(unique, path)
    module = importlib.util.module_from_spec(spec)
    search = [os.path.dirname(path)] + include
    added = [d for d in search if d not in sys.path]
    sys.path[:0] = added
    try:
        spec.loader.exec_module(module)
    finally:
        for d in added:
            sys.path.remove(d)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [k for k, v in vars(module).items()
                 if (inspect.isfunction(v) or isinstance(v, UFunc)) and v.__module__ == unique]
    exports = {}
    for k in names:
        v = getattr(module, k)
        exports[k] = _vectorize(v) if isinstance(v, UFunc) else v
    return Module(name, path, None, False, exports)


def _vectorize(u):
    """A stand-in ufunc as `numpy.vectorize` (with its signature when
    generalized)."""
    generalized = any(u.core_in) or any(u.core_out)
    if u.returns:
        return np.vectorize(u.py_func, otypes=[u.ret_dtype.np],
                            signature=u.signature)
    out_dtypes = [u._param_dtype(u.nin + i).np for i in range(u.nout)]

    def body(*inputs):
        sizes = {}
        for x, core in zip(inputs, u.core_in):
            sizes.update(zip(core, np.shape(x)[np.ndim(x) - len(core):]))
        outs = [np.zeros([sizes[d] for d in core], dtype=t) for core, t in zip(u.core_out, out_dtypes)]
        u.py_func(*inputs, *outs)
        return outs[0] if len(outs) == 1 else tuple(outs)

    return np.vectorize(body, otypes=out_dtypes, signature=u.core_signature)


def _version():
    """The package's version: its installed metadata, which maturin takes
    from the Cargo workspace's `version`; in a source checkout without it,
    that `version` itself."""
    from importlib import metadata

    try:
        return metadata.version("postc")
    except metadata.PackageNotFoundError:
        cargo = os.path.join(os.path.dirname(__file__), "..", "..", "Cargo.toml")
        with open(cargo, encoding="utf-8") as f:
            found = re.search(r'^\[workspace\.package\][^\[]*?^version = "([^"]+)"', f.read(), re.M)
        if found is None:
            raise AttributeError("postc has no installed metadata and no Cargo workspace version") from None
        return found.group(1)


def __getattr__(name):
    # `__version__` on first use: importing `importlib.metadata` costs more
    # than the rest of `import postc`.
    if name == "__version__":
        version = globals()["__version__"] = _version()
        return version
    raise AttributeError(f"module 'postc' has no attribute {name!r}")
