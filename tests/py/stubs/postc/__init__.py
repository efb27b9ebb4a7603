"""Pure-Python stand-in for the `postc` decorators and built-ins.

Runs POST Python under CPython unchanged: the attribute decorators
(`gpu`, `kernel`, `cold`, `noinline`, `jit`) return the function itself;
`ufunc` returns a callable with NumPy ufunc semantics implemented in plain
Python (broadcasting over the loop dimensions, one call of the body per
iteration); `empty(n, DTYPE)` returns a fresh 1-D array (zero-filled here so
CPython runs are deterministic; POST code must write before it reads).
"""

import re
import sys
import threading

import numpy as np

from postyp import ArrayType, DType, OutType, dtype_of

__all__ = [
    "ufunc", "gpu", "kernel", "cold", "noinline", "jit", "empty",
    "thread_idx", "block_idx", "block_dim", "grid_dim", "launch",
    "shared", "sync_threads", "atomic_add",
]


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
    """`@jit` / `@jit(...)`: compile on first call; identity here."""
    if fn is None:
        return lambda f: f
    return fn


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
