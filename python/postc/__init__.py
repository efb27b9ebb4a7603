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

import functools
import hashlib
import importlib.util
import inspect
import os
import re
import sys
import tempfile
import threading

import numpy as np

from postyp import ArrayType, DType, OutType, dtype_of

__all__ = [
    "ufunc", "gpu", "kernel", "cold", "noinline", "jit", "empty",
    "thread_idx", "block_idx", "block_dim", "grid_dim", "launch",
    "shared", "sync_threads", "atomic_add", "compile", "CompileError", "Module",
    "cache_dir", "jit_disabled",
]

try:
    from . import _native
except ImportError:  # the pure-Python parts alone (a source checkout)
    _native = None

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


def jit(fn=None, **options):
    """`@jit` / `@jit(opt=..., backend=..., include=...)`: compiles the
    function's module (the file it is defined in) on the first call and
    calls the compiled function from then on. Without the compiled
    extension, or with `POSTC_DISABLE_JIT=1`, the function itself."""
    if fn is None:
        return lambda f: jit(f, **options)
    if _native is None or jit_disabled():
        return fn
    return _Jit(fn, options)


class _Jit:
    """A function compiled with its module on its first call."""

    def __init__(self, fn, options):
        self.py_func = fn
        self._options = options
        self._compiled = None
        self._lock = threading.Lock()
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        f = self._compiled
        if f is None:
            f = self._compile()
        return f(*args, **kwargs)

    def _compile(self):
        with self._lock:
            if self._compiled is None:
                fn = self.py_func
                path = inspect.getsourcefile(getattr(fn, "py_func", fn))
                if path is None:
                    raise TypeError(f"@jit {self.__name__}: the function has no source file to compile")
                module = compile(path, **self._options)
                self._compiled = getattr(module, self.__name__)
            return self._compiled

    def __repr__(self):
        state = "compiled" if self._compiled is not None else "not compiled yet"
        return f"<postc.jit {self.__name__} ({state})>"


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
    """A POST ufunc under CPython: `body` computes one loop iteration."""

    def __init__(self, fn, signature=None):
        self.py_func = fn
        self.__name__ = fn.__name__
        self.__qualname__ = getattr(fn, "__qualname__", fn.__name__)
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__wrapped__ = fn
        ann = dict(fn.__annotations__)
        ret = ann.pop("return", None)
        names = list(fn.__code__.co_varnames[: fn.__code__.co_argcount])
        self.params = [(p, ann.get(p)) for p in names]
        if signature is None:
            # Elementwise: scalar parameters, one scalar result.
            for p, a in self.params:
                if dtype_of(a) is None:
                    raise TypeError(f"@ufunc {fn.__name__}: parameter {p} must be a scalar")
            if dtype_of(ret) is None:
                raise TypeError(f"@ufunc {fn.__name__}: needs a scalar return type")
            signature = ",".join("()" for _ in self.params) + "->()"
        self.signature = signature
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
        return f"<postc ufunc {self.__name__} {self.signature!r}>"

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

    def __call__(self, *args):
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


def ufunc(arg=None):
    """`@ufunc` (elementwise) or `@ufunc("(n),(n)->()")` (generalized)."""
    if callable(arg):
        return UFunc(arg)
    if arg is not None and not isinstance(arg, str):
        raise TypeError("ufunc takes a signature string")

    def deco(fn):
        return UFunc(fn, arg)

    return deco


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
    fallback) and `cached` whether it came from the cache."""

    def __init__(self, name, path, library, cached, exports):
        self.__name__ = name
        self.path = path
        self.library = library
        self.cached = cached
        self._exports = dict(exports)
        for k, v in self._exports.items():
            setattr(self, k, v)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._exports))

    def __repr__(self):
        how = f"compiled to {self.library}" if self.library else "pure Python"
        return f"<postc.Module {self.__name__} from {self.path!r} ({how})>"


def _is_source(text):
    return "\n" in text or not text.endswith((".py", ".pir"))


def _write_source(text, cache):
    """A source string as a file of the cache (content-addressed, written
    atomically), so that diagnostics and panics can name it."""
    digest = hashlib.sha256(text.encode()).hexdigest()
    pir = any(line.startswith("module ") for line in text.splitlines()[:1])
    d = os.path.join(cache, "sources", digest[:2], digest[2:])
    path = os.path.join(d, "source.pir" if pir else "source.py")
    if not os.path.isfile(path):
        os.makedirs(d, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".write-")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    return path


def compile(path_or_source, *, opt=2, backend="llvm", include=()):
    """Compiles a POST module (a `.py` or `.pir` path, or the source text
    itself) and the POST modules it imports; returns a `Module` whose
    attributes are the exported functions and ufuncs (real NumPy ufuncs).

    `opt` is the optimisation level (0-3: integer overflow panics at 0),
    `include` directories where imports are looked for after the importing
    file's own directory. Raises `CompileError` with the located
    diagnostics. Libraries are cached (`cache_dir()`), keyed by the text of
    every file read, the options, the target and the compiler build.
    With `POSTC_DISABLE_JIT=1` (or without the compiled extension) a `.py`
    module is imported and its pure-Python functions returned, ufuncs as
    `numpy.vectorize` objects."""
    include = [os.fspath(i) for i in include]
    if isinstance(path_or_source, os.PathLike) or not _is_source(path_or_source):
        path = os.path.abspath(os.fspath(path_or_source))
        if not os.path.isfile(path):
            raise FileNotFoundError(f"postc.compile: no such file: {path}")
    else:
        path = None
    if _native is None or jit_disabled():
        if path is None:
            path = _write_source(path_or_source, cache_dir())
        return _python_module(path, include)
    if path is None:
        path = _write_source(path_or_source, cache_dir())
    library, cached, exports = _native.compile(
        path, opt=int(opt), backend=str(backend), include=include, cache_dir=cache_dir())
    name = os.path.splitext(os.path.basename(path))[0]
    return Module(name, path, library, cached, exports)


def _python_module(path, include):
    """The pure-Python functions of a POST Python file, as a Module."""
    if not path.endswith(".py"):
        raise CompileError(f"{path}: a .pir module has no pure-Python functions to run "
                           "(POSTC_DISABLE_JIT is set or the compiled extension is missing)")
    name = os.path.splitext(os.path.basename(path))[0]
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
                            signature=u.signature if generalized else None)
    out_dtypes = [u._param_dtype(u.nin + i).np for i in range(u.nout)]

    def body(*inputs):
        sizes = {}
        for x, core in zip(inputs, u.core_in):
            sizes.update(zip(core, np.shape(x)[np.ndim(x) - len(core):]))
        outs = [np.zeros([sizes[d] for d in core], dtype=t) for core, t in zip(u.core_out, out_dtypes)]
        u.py_func(*inputs, *outs)
        return outs[0] if len(outs) == 1 else tuple(outs)

    return np.vectorize(body, otypes=out_dtypes, signature=u.signature)


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
