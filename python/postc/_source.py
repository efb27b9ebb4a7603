"""What `@jit` compiles: a function and the POST functions it calls, cut
out of the files they were written in, and nothing else of those files.

A script, a notebook cell or a module of a larger program holds much that
is not POST Python (NumPy at top level, a `main()` that prints, classes).
`@jit` compiles a function as Numba does: the function, every function it
calls (found through its globals, transitively), and the values of the
globals it reads (numbers, NumPy arrays), frozen at compile time. For each file involved this
module writes a *cut*: the file's text with every line that does not
belong to a selected function blanked, so that line numbers — and so
diagnostics and panic locations — are the file's own; and one first line
of statements that rebuild the globals the functions read (imports of
postyp, postc, NumPy and the other cuts, constants). The compiler reads the
cuts from memory under the files' own paths (`<ipython-input-…>` too).

Source comes from `linecache`, so functions defined in `__main__`, in
IPython and Jupyter cells and in `exec`'d code whose source was registered
there work; `python -c` source is recovered from `sys.orig_argv`.

A cut is valid Python as well: unpickling a `@jit` function where the
compiler is disabled runs its cut under CPython (`load_functions`).
"""

import ast
import builtins
import linecache
import os
import sys
import types
import typing

import numpy as np

import postyp

__all__ = ["Unit", "SourceError", "collect", "module_name", "load_functions"]


class SourceError(Exception):
    """A function cannot be compiled as written (no source, or a global of
    a kind compiled code cannot hold); the message is a located
    diagnostic."""


class Unit:
    """What one `@jit` function compiles: `files` maps each path to its
    cut (the entry's file first), `entry` is the function's name in the
    module of `root`; `generic` names the entry's parameters that have no
    annotation (compiled per the types of each call's arguments, see
    `specialize`)."""

    def __init__(self, root, entry, files, generic=()):
        self.root = root
        self.entry = entry
        self.files = files
        self.generic = tuple(generic)

    def __getstate__(self):
        return {"root": self.root, "entry": self.entry, "files": list(self.files.items()),
                "generic": list(self.generic)}

    def __setstate__(self, state):
        self.root = state["root"]
        self.entry = state["entry"]
        self.files = dict(state["files"])
        self.generic = tuple(state.get("generic", ()))


def module_name(path):
    """The POST module a file of this path is: its stem, made an
    identifier (the frontend names a module the same way: a Jupyter cell
    `/tmp/ipykernel_7/231.py` is module `_231`)."""
    base = os.path.basename(path)
    stem = base[:-3] if base.endswith(".py") else base
    if stem.isidentifier() and stem.isascii():
        return stem
    name = "".join(c if (c.isascii() and c.isalnum()) else "_" for c in stem).strip("_")
    return name if (name.isidentifier() and name.isascii()) else "_" + name


# ---------------------------------------------------------------------------
# source text

def _lines_of(filename, module_globals):
    lines = linecache.getlines(filename, module_globals)
    if not lines and filename == "<string>":
        # `python -c CODE`: CPython keeps the code in sys.orig_argv only.
        argv = list(getattr(sys, "orig_argv", ()))
        if "-c" in argv[1:-1]:
            text = argv[argv.index("-c", 1) + 1]
            lines = [line + "\n" for line in text.split("\n")]
            linecache.cache[filename] = (len(text), None, lines, filename)
    return lines


_PARSED = {}


def _parse(filename, lines):
    """A file's tree and its `def`s by (name, first line), parsed once per
    text."""
    text = "".join(lines)
    key = (filename, text)
    parsed = _PARSED.get(key)
    if parsed is None:
        tree = ast.parse(text, filename)
        defs = {}

        def visit(node, nested):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    first = child.decorator_list[0].lineno if child.decorator_list else child.lineno
                    for line in (first, child.lineno):
                        defs.setdefault((child.name, line), (child, nested))
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    visit(child, True)
                elif isinstance(child, ast.stmt):
                    visit(child, nested)

        visit(tree, False)
        parsed = _PARSED[key] = defs
    return parsed


def _find_def(defs, code):
    """The `def` of `code` in a parsed file, and whether it is nested."""
    return defs.get((code.co_name, code.co_firstlineno), (None, False))


def _located(path, line, col, message, lines=None):
    text = f"error: {message}\n  ┌─ {path}:{line}:{col + 1}\n"
    if lines and 0 < line <= len(lines):
        src = lines[line - 1].rstrip("\n")
        w = len(str(line))
        text += f"{' ' * w} │\n{line} │ {src}\n{' ' * w} │ {' ' * col}^\n"
    return text


# ---------------------------------------------------------------------------
# the names a function reads


class _Names(ast.NodeVisitor):
    """Names a function body binds and reads; for a read rooted at a name,
    the dotted chains it is read through (`np.float64`)."""

    def __init__(self):
        self.bound = set()
        self.declared_global = set()
        self.read = {}  # name -> first node
        self.chains = {}  # name -> set of dotted suffixes

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            self.read.setdefault(node.id, node)
        else:
            self.bound.add(node.id)

    def visit_Attribute(self, node):
        parts = []
        n = node
        while isinstance(n, ast.Attribute):
            parts.append(n.attr)
            n = n.value
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            self.chains.setdefault(n.id, set()).add(".".join(reversed(parts)))
        self.generic_visit(node)

    def visit_Global(self, node):
        self.declared_global.update(node.names)

    def visit_FunctionDef(self, node):  # a nested function: its name is bound
        self.bound.add(node.name)
        self.generic_visit(node)

    def visit_arg(self, node):
        self.bound.add(node.arg)
        if node.annotation is not None:
            self.visit(node.annotation)


def _reads(node, decorators):
    """(read names -> first node, dotted chains) of a `def` and the
    decorators kept with it."""
    v = _Names()
    for d in decorators:
        v.visit(d)
    for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
        v.visit(a)
    for d in node.args.defaults + node.args.kw_defaults:
        if d is not None:
            v.visit(d)
    if node.returns is not None:
        v.visit(node.returns)
    for stmt in node.body:
        v.visit(stmt)
    local = v.bound - v.declared_global
    return {k: n for k, n in v.read.items() if k not in local}, v.chains


# ---------------------------------------------------------------------------
# what a global is


def _postc():
    import postc

    return postc


def _postc_math():
    """postc.math if anything imported it (nothing else can hold its
    functions); importing it loads the C library, which compiling does not
    need."""
    return sys.modules.get("postc.math")


def _identity_in(module, value):
    for k, v in vars(module).items():
        if v is value and not k.startswith("_"):
            return k
    return None


def unwrap(value):
    """The Python function behind a `@jit` function, a ufunc stand-in or a
    Numba dispatcher; None for anything else."""
    for _ in range(4):
        if isinstance(value, types.FunctionType):
            return value
        inner = getattr(value, "py_func", None)
        if inner is None:
            return None
        value = inner
    return None


_NUMPY_SCALARS = {
    np.bool_: "Bool", np.int8: "Int8", np.int16: "Int16", np.int32: "Int32", np.int64: "Int64",
    np.uint8: "UInt8", np.uint16: "UInt16", np.uint32: "UInt32", np.uint64: "UInt64",
    np.float16: "Float16", np.float32: "Float32", np.float64: "Float64",
    np.complex64: "Complex64", np.complex128: "Complex128",
}


def _float_text(x):
    if x != x:
        return "(1e999 - 1e999)"
    if x in (float("inf"), float("-inf")):
        return "1e999" if x > 0 else "-1e999"
    return repr(float(x))


def _constant(value):
    """The source text of a number, string or NumPy scalar, and the postyp
    type that annotates it (None: the literal's own type)."""
    if isinstance(value, (bool, np.bool_)):
        return repr(bool(value)), ("Bool" if isinstance(value, np.bool_) else None)
    if isinstance(value, int):
        return repr(value), None
    if isinstance(value, float):
        return _float_text(value), None
    if isinstance(value, complex):
        return f"complex({_float_text(value.real)}, {_float_text(value.imag)})", None
    if isinstance(value, (str, bytes)):
        return repr(value), None
    t = _NUMPY_SCALARS.get(type(value))
    if t is not None:
        if isinstance(value, np.integer):
            return repr(int(value)), t
        if isinstance(value, np.complexfloating):
            return f"complex({_float_text(value.real)}, {_float_text(value.imag)})", t
        return _float_text(float(value)), t
    return None


# The most elements a global array compiled as a constant may have.
_MAX_ARRAY_ELEMENTS = 1_000_000

_ARRAY_DTYPES = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64"}


def _array_refusal(value):
    """Why compiled code cannot hold the global array `value` as a
    constant (None: it can)."""
    if value.dtype.name not in _ARRAY_DTYPES:
        return (f"of dtype {value.dtype}: compiled code freezes global arrays of booleans, integers and "
                "floats only")
    if value.ndim == 0:
        return "with no axes (0-d): compiled code freezes global arrays of one axis or more"
    if value.size > _MAX_ARRAY_ELEMENTS:
        return (f"of {value.size} elements: compiled code freezes global arrays of at most "
                f"{_MAX_ARRAY_ELEMENTS} elements")
    if value.size == 0 and value.ndim > 1:
        return "with no elements and several axes: compiled code cannot freeze it"
    return None


def _array_text(value):
    """The nested list of `value`'s elements in C order, each written so
    that it reads back exactly (`repr` of a float, NaN and infinities as
    `_float_text` spells them)."""
    if value.dtype.kind == "b":
        one = repr
    elif value.dtype.kind in "iu":
        one = lambda x: repr(int(x))  # noqa: E731
    else:
        one = lambda x: _float_text(float(x))  # noqa: E731

    def nested(x):
        if isinstance(x, list):
            return "[" + ", ".join(nested(e) for e in x) + "]"
        return one(x)

    return nested(np.ascontiguousarray(value).tolist())


class _Cut:
    """One file's cut under construction."""

    def __init__(self, path, lines):
        self.path = path
        self.lines = lines
        self.kept = {}  # line number (1-based) -> text
        self.header = {}  # name -> statement
        self.first_line = None

    def keep(self, first, last, dedent):
        for n in range(first, last + 1):
            text = self.lines[n - 1] if n - 1 < len(self.lines) else "\n"
            if dedent and text.strip():
                text = text[dedent:] if text[:dedent].strip() == "" else text.lstrip()
            self.kept[n] = text if text.endswith("\n") else text + "\n"
        self.first_line = first if self.first_line is None else min(self.first_line, first)

    def bind(self, name, statement, node):
        old = self.header.get(name)
        if old is not None and old != statement:
            raise SourceError(_located(self.path, node.lineno, node.col_offset,
                                       f"`{name}` means two things to the functions compiled together "
                                       f"({old!r} and {statement!r})", self.lines))
        self.header[name] = statement

    def text(self):
        n = max(self.kept) if self.kept else 0
        out = [self.kept.get(i, "\n") for i in range(1, n + 1)]
        # Imports first: constants may be annotated with imported types.
        statements = sorted(self.header.items(), key=lambda kv: (not kv[1].startswith(("import ", "from ")), kv[0]))
        header = "; ".join(text for _, text in statements) + "\n" if statements else ""
        if header:
            if self.first_line is not None and self.first_line > 1:
                out[0] = header
            else:
                # The first function starts on line 1: its lines move down
                # by one (rare: a decorator line is blanked in any `@jit`).
                out.insert(0, header)
        return "".join(out)


# The functions of Python's math that compiled code has
# (frontend/src/lower/pymath.rs).
_PYTHON_MATH_NAMES = frozenset("""sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan asin acos atan sinh
    cosh tanh asinh acosh atanh erf erfc gamma lgamma fabs atan2 hypot copysign fmod pow floor ceil trunc isnan
    isinf isfinite""".split())

_KEPT_DECORATORS = ("ufunc", "gpu", "kernel", "cold", "noinline")


def _decorator_target(expr, scope):
    """The postc decorator a decorator expression names, or None."""
    if isinstance(expr, ast.Call):
        expr = expr.func
    names = []
    while isinstance(expr, ast.Attribute):
        names.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    value = scope(expr.id)
    for attr in reversed(names):
        value = getattr(value, attr, None)
    postc = _postc()
    for k in _KEPT_DECORATORS:
        if value is getattr(postc, k):
            return k
    return None


_NOT_A_UFUNC = object()


def collect(fn, variant=None, ufunc=_NOT_A_UFUNC):
    """The `Unit` of a function: its cut and those of every function it
    calls. `variant = (parameter dtypes, result dtype)`, postyp names, makes
    the function an elementwise ufunc of those dtypes, whatever its own
    annotations and decorators say (one signature of a ufunc with
    several). `ufunc` (None: elementwise, or a core signature) makes it a
    ufunc when its source has no `@ufunc` line, as after
    `postc.ufunc(f)` of a plain function."""
    root = unwrap(fn)
    if root is None:
        raise TypeError(f"@jit: {fn!r} is not a Python function")
    cuts = {}  # path -> _Cut
    order = []
    done = {}  # code object -> (path, name)
    declared = None  # (path, line) of a `@_postc_ufunc` line collect wrote
    work = [root]
    generic = []
    while work:
        f = work.pop()
        code = f.__code__
        if code in done:
            continue
        path = code.co_filename
        lines = _lines_of(path, f.__globals__)
        if not lines:
            raise SourceError(
                f"error: the source of `{f.__qualname__}` is not available: postc compiles source text, and "
                f"`{path}` has none in `linecache` (code made by exec() without registering its text there, or a "
                f"file that no longer exists)\n")
        node, nested = _find_def(_parse(path, lines), code)
        if node is None:
            raise SourceError(f"error: cannot find the definition of `{f.__qualname__}` in `{path}`\n")
        if isinstance(node, ast.AsyncFunctionDef):
            raise SourceError(_located(path, node.lineno, node.col_offset,
                                       f"`{node.name}` is a coroutine: compiled functions are plain `def`s", lines))
        cut = cuts.get(path)
        if cut is None:
            cut = cuts[path] = _Cut(path, lines)
            order.append(path)
        done[code] = (path, node.name)

        freevars = dict(zip(code.co_freevars, f.__closure__ or ()))

        def scope(name, f=f, freevars=freevars):
            if name in freevars:
                try:
                    return freevars[name].cell_contents
                except ValueError:
                    return None
            if name in f.__globals__:
                return f.__globals__[name]
            return getattr(builtins, name, None)

        dedent = node.col_offset if nested else 0
        if f is root and variant is None:
            args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            # Unannotated, or a dtype given when called (`np.dtype`, as
            # pandas annotates one): compiled for each call's.
            generic = [a.arg for a in args if a.annotation is None or _names_numpy_dtype(a.annotation, scope)]
            if generic:
                # What `specialize` annotates them with.
                cut.header["_postc_postyp"] = "import postyp as _postc_postyp"
        if f is root and variant is not None:
            kept = []
            declared = _cut_variant(cut, node, variant, dedent)
        else:
            kept = [d for d in node.decorator_list if _decorator_target(d, scope) is not None]
            for d in kept:
                cut.keep(d.lineno, d.end_lineno, dedent)
            cut.keep(node.lineno, node.end_lineno, dedent)
            if f is root and ufunc is not _NOT_A_UFUNC and not any(_decorator_target(d, scope) == "ufunc"
                                                                   for d in kept):
                declared = _declare_ufunc(cut, node, kept, ufunc)

        reads, chains = _reads(node, kept)
        for name, at in reads.items():
            if name in freevars or name in f.__globals__:
                value = scope(name)
            else:
                continue  # a builtin (range, len, …) or undefined: the frontend's to judge
            _bind(cut, name, value, chains.get(name, ()), at, lines, work)
    if declared is not None:
        path, line, text = declared
        if cuts[path].kept.get(line) != text:
            raise SourceError(_located(path, line, 0, f"ufunc `{root.__name__}` needs a line of its own above its "
                                       "`def` for postc's `@ufunc` (another function's code is there)",
                                       cuts[path].lines))
    files = {p: cuts[p].text() for p in order}
    return Unit(order[0], done[root.__code__][1], files, generic)


def specialize(unit, annotations):
    """The unit of a generic entry (`unit.generic`) compiled for one list
    of argument types: its `def` line written again with `annotations`
    (parameter name -> annotation text over `_postc_postyp`) for the
    parameters that have none or are dtypes given when called
    (`np.dtype`); the lines keep their numbers."""
    text = unit.files[unit.root]
    lines = text.splitlines(keepends=True)
    node = next((n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef) and n.name == unit.entry), None)
    if node is None:
        raise SourceError(f"error: cannot find the definition of `{unit.entry}` in its cut\n")
    segment = lambda e: " ".join(ast.get_source_segment(text, e).split())  # noqa: E731
    a = node.args
    params = []
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for i, (p, d) in enumerate(zip(positional, defaults)):
        params.append(_parameter_text(p, d, annotations, segment))
        if a.posonlyargs and i == len(a.posonlyargs) - 1:
            params.append("/")
    if a.kwonlyargs:
        params.append("*")
        params += [_parameter_text(p, d, annotations, segment) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    ret = f" -> {segment(node.returns)}" if node.returns is not None else ""
    header = f"def {node.name}({', '.join(params)}){ret}:"
    body_line = node.body[0].lineno
    if body_line == node.lineno:  # `def f(a, b): return a + b`
        rest = lines[body_line - 1].encode()[node.body[0].col_offset:].decode()
        lines[node.lineno - 1] = header + " " + rest.rstrip("\n") + "\n"
    else:
        lines[node.lineno - 1] = header + "\n"
        for n in range(node.lineno, body_line - 1):
            lines[n] = "\n"
    files = dict(unit.files)
    files[unit.root] = "".join(lines)
    return Unit(unit.root, unit.entry, files)


def _names_numpy_dtype(annotation, scope):
    """Whether an annotation is NumPy's `dtype` class (`np.dtype`, or
    `dtype` imported from NumPy)."""
    if isinstance(annotation, ast.Attribute) and isinstance(annotation.value, ast.Name):
        module = scope(annotation.value.id)
        return getattr(module, "__name__", None) == "numpy" and annotation.attr == "dtype"
    if isinstance(annotation, ast.Name):
        import numpy
        return scope(annotation.id) is numpy.dtype
    return False


def _parameter_text(p, default, annotations, segment):
    annotation = annotations[p.arg] if p.arg in annotations else segment(p.annotation) if p.annotation else None
    text = p.arg if annotation is None else f"{p.arg}: {annotation}"
    return text if default is None else f"{text} = {segment(default)}"


def _declare_ufunc(cut, node, kept, signature):
    """Writes `@_postc_ufunc` (or `@_postc_ufunc("(n)->()")`) on a line of
    the cut that holds nothing above `node`'s `def`: one of its blanked
    decorators, else the line just above. Returns (path, line, text)."""
    taken = {n for d in kept for n in range(d.lineno, d.end_lineno + 1)}
    first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    free = [n for n in range(first, node.lineno) if n not in taken]
    line = free[0] if free else node.lineno - 1
    if line < 1 or line in cut.kept:
        raise SourceError(_located(cut.path, node.lineno, node.col_offset,
                                   f"ufunc `{node.name}` needs a line of its own above its `def` for postc's "
                                   "`@ufunc` (write the decorator there)", cut.lines))
    cut.header["_postc_ufunc"] = "from postc import ufunc as _postc_ufunc"
    text = "@_postc_ufunc\n" if signature is None else f"@_postc_ufunc({signature!r})\n"
    cut.kept[line] = text
    cut.first_line = min(cut.first_line, line)
    return cut.path, line, text


def _cut_variant(cut, node, variant, dedent):
    """Keeps `node` with its `def` line rewritten to the dtypes of
    `variant`, as an elementwise ufunc; its decorators are dropped, and
    `@_postc_ufunc` is written on the first of their lines (or the line
    above the `def`). Returns (path, line, text) of that line."""
    params, result = variant
    names = [a.arg for a in node.args.posonlyargs + node.args.args]
    if len(names) != len(params) or node.args.vararg or node.args.kwarg or node.args.kwonlyargs:
        raise SourceError(_located(cut.path, node.lineno, node.col_offset,
                                   f"ufunc `{node.name}` has {len(names)} parameters, but its signature has "
                                   f"{len(params)} inputs", cut.lines))
    for t in set(params) | {result}:
        cut.header[f"_postc_{t}"] = f"from postyp import {t} as _postc_{t}"
    cut.header["_postc_ufunc"] = "from postc import ufunc as _postc_ufunc"
    first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    cut.keep(first, node.end_lineno, dedent)
    body_line = node.body[0].lineno
    for n in range(first, min(body_line, node.end_lineno + 1)):
        cut.kept[n] = "\n"
    signature = ", ".join(f"{p}: _postc_{t}" for p, t in zip(names, params))
    header = f"def {node.name}({signature}) -> _postc_{result}:"
    if body_line == node.lineno:  # `def f(a, b): return a + b`
        rest = cut.lines[body_line - 1][node.body[0].col_offset:]
        cut.kept[body_line] = header + " " + rest.rstrip("\n") + "\n"
    else:
        cut.kept[node.lineno] = header + "\n"
    line = first if first < node.lineno else node.lineno - 1
    if line < 1 or (line != first and line in cut.kept):
        raise SourceError(_located(cut.path, node.lineno, node.col_offset,
                                   f"ufunc `{node.name}` needs a line of its own above its `def` for postc's "
                                   "`@ufunc` (write the decorator there)", cut.lines))
    cut.kept[line] = "@_postc_ufunc\n"
    cut.first_line = min(cut.first_line, line)
    return cut.path, line, cut.kept[line]


def _bind(cut, name, value, chains, at, lines, work):
    """Adds what rebuilds global `name` for compiled code to the cut."""
    postc = _postc()
    pmath = _postc_math()
    fail = lambda why: SourceError(_located(cut.path, at.lineno, at.col_offset, why, lines))  # noqa: E731
    if isinstance(value, types.ModuleType):
        mod = value.__name__
        project = _project_module(cut, name, value, chains, fail)
        if project is not None:
            # A module of the program (`import pkg.stats as stats`,
            # `stats.std(x)`): its functions compile with this one, and
            # the name imports the cut that holds them.
            dep, functions = project
            cut.bind(name, f"import {dep} as {name}" if dep != name else f"import {dep}", at)
            work.extend(functions)
            return
        if mod == "math":
            # Python's own math: compiled with CPython's results (Python
            # floats and ints, CPython's domain and range errors).
            cut.bind(name, "import math" if name == "math" else f"import math as {name}", at)
        elif mod == name:
            subs = sorted({f"{mod}.{c.rsplit('.', 1)[0]}" for c in chains if "." in c
                           and f"{mod}.{c.rsplit('.', 1)[0]}" in sys.modules})
            cut.bind(name, "; ".join([f"import {mod}"] + [f"import {s}" for s in subs]), at)
        else:
            cut.bind(name, f"import {mod} as {name}", at)
        return
    if value is postc or (pmath is not None and value is pmath):
        return
    # postc's own decorators and helpers (`from postc import ufunc`) are
    # Python functions too: they are imported, never compiled.
    k = _identity_in(postc, value)
    if k is not None:
        cut.bind(name, f"from postc import {k} as {name}", at)
        return
    fn = unwrap(value)
    if fn is not None and getattr(fn, "__module__", None) != "postc.math":
        if fn.__code__.co_filename == cut.path:
            if fn.__name__ != name:
                raise fail(f"`{name}` names the function `{fn.__name__}`: call it by its own name in compiled code")
        else:
            dep = module_name(fn.__code__.co_filename)
            if dep == module_name(cut.path):
                raise fail(f"`{name}` is a function of another file whose module name `{dep}` is this one's")
            cut.bind(name, f"from {dep} import {fn.__name__} as {name}", at)
        work.append(fn)
        return
    if callable(value) and getattr(value, "__module__", None) == "math":
        if value.__name__ in _PYTHON_MATH_NAMES:
            cut.bind(name, f"from math import {value.__name__} as {name}", at)
            return
        raise fail(f"`{name}` is `math.{value.__name__}`, which compiled code does not have")
    k = _identity_in(pmath, value) if pmath is not None else None
    if k is not None:
        cut.bind(name, f"from postc.math import {k} as {name}", at)
        return
    k = _identity_in(postyp, value)
    if k is not None:
        cut.bind(name, f"from postyp import {k} as {name}", at)
        return
    if isinstance(value, type) and value.__module__.startswith("numpy"):
        k = _identity_in(np, value)
        if k is not None:
            cut.bind(name, f"from numpy import {k} as {name}", at)
            return
    if isinstance(value, np.ufunc):
        cut.bind(name, f"from numpy import {value.__name__} as {name}", at)
        return
    # `Optional` and `Union` of annotations (`from typing import Optional`).
    k = _identity_in(typing, value) if getattr(value, "__module__", None) == "typing" else None
    if k is not None:
        cut.bind(name, f"from typing import {k} as {name}", at)
        return
    # Another function of NumPy's namespace (`from numpy import cross`):
    # the compiler knows it, or refuses it with a located error.
    if callable(value) and str(getattr(value, "__module__", "")).startswith("numpy"):
        k = _identity_in(np, value)
        if k is not None:
            cut.bind(name, f"from numpy import {k} as {name}", at)
            return
    const = _constant(value)
    if const is not None:
        text, annotation = const
        if annotation is None:
            cut.bind(name, f"{name} = {text}", at)
        else:
            cut.bind(f"_postc_{annotation}", f"from postyp import {annotation} as _postc_{annotation}", at)
            cut.bind(name, f"{name}: _postc_{annotation} = {text}", at)
        return
    if isinstance(value, np.ndarray):
        # Frozen as Numba freezes a global array: the values it holds now,
        # a read-only constant of the compiled code (`np.array([...])` at
        # module level, built at each call's entry).
        why = _array_refusal(value)
        if why is not None:
            raise fail(f"`{name}` is a global NumPy array {why}; pass it as an argument")
        cut.bind("_postc_np", "import numpy as _postc_np", at)
        cut.bind(name, f"{name} = _postc_np.array({_array_text(value)}, dtype={value.dtype.name!r})", at)
        return
    raise fail(f"`{name}` is a {type(value).__name__} of Python's globals: compiled code can read modules, "
               "POST functions, types and numbers from there, nothing else")


# The modules whose functions compiled code calls as its own intrinsics
# (or refuses): never compiled from their source.
_LIBRARIES = {"numpy", "math", "cmath", "postc", "postyp", "numba", "scipy", "builtins"}


def _project_module(cut, name, module, chains, fail):
    """When the functions a body reads through module `name` (`name.f`)
    are Python functions of the program rather than a library's, the
    module the cut imports for them (the cut of the file that holds them)
    and the functions; None otherwise."""
    if module.__name__.split(".")[0] in _LIBRARIES:
        return None
    members = sorted({c.split(".")[0] for c in chains})
    for c in sorted(chains):
        parts = c.split(".")
        inner = getattr(module, parts[0], None)
        if len(parts) == 2 and isinstance(inner, types.ModuleType) and unwrap(getattr(inner, parts[1], None)):
            raise fail(f"`{name}.{c}` is a function of the module `{inner.__name__}` of the program: compiled code "
                       f"calls it through an import of that module (`import {inner.__name__} as {parts[0]}`, then "
                       f"`{parts[0]}.{parts[1]}(...)`)")
    functions = [unwrap(getattr(module, m, None)) for m in members]
    if not functions or any(f is None for f in functions):
        return None
    files = {f.__code__.co_filename for f in functions}
    if len(files) > 1:
        raise fail(f"the functions compiled code calls through `{name}` are defined in different files "
                   f"({', '.join(sorted(os.path.basename(p) for p in files))}): import each by name")
    for m, f in zip(members, functions):
        if f.__name__ != m:
            raise fail(f"`{name}.{m}` names the function `{f.__name__}`: call it by its own name in compiled code")
    return module_name(files.pop()), functions


def load_functions(unit):
    """The Python functions of a unit's cuts, run under CPython (each cut
    is a module; the entry's module last)."""
    modules = {}
    saved = {}
    try:
        for path in reversed(list(unit.files)):
            name = module_name(path)
            mod = types.ModuleType(name)
            mod.__file__ = path
            saved.setdefault(name, sys.modules.get(name))
            sys.modules[name] = mod
            modules[path] = mod
        for path in reversed(list(unit.files)):
            mod = modules[path]
            exec(compile(unit.files[path], path, "exec"), mod.__dict__)
    finally:
        for name, old in saved.items():
            if old is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = old
    return getattr(modules[unit.root], unit.entry)
