"""Runs the cases of tests/py programs through compiled modules and prints
a transcript: every case's result or exception and its arrays after the
call, then what each function does with bad arguments (too few or too
many, an unknown keyword, a value of the wrong type, an array of another
dtype or rank, a read-only array, an integer out of range).

    python pyext_cases.py package PROGRAM.py...   # through postc.compile
    python pyext_cases.py pyext DIR PROGRAM.py... # extension modules in DIR

An extension module (`postc-driver compile --emit pyext`) must print the
transcript the package prints (test_pyext.py compares them). In `pyext`
mode the script also pickles every export (it must come back as the same
object) and calls functions and ufuncs in a spawned process pool; it exits
with status 1 if a result there differs from the one in this process."""
import contextlib
import inspect
import io
import multiprocessing
import pathlib
import pickle
import re
import sys

import numpy as np

DTYPES = {
    "Bool": np.bool_, "Int8": np.int8, "Int16": np.int16, "Int32": np.int32, "Int64": np.int64,
    "UInt8": np.uint8, "UInt16": np.uint16, "UInt32": np.uint32, "UInt64": np.uint64,
    "Float16": np.float16, "Float32": np.float32, "Float64": np.float64,
    "Complex64": np.complex64, "Complex128": np.complex128,
}


def unescape(body, as_bytes):
    """The text of a quoted `.expected` string (tests/expected_text.py's
    escapes)."""
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(ord(c) if as_bytes else c)
            i += 1
            continue
        e = body[i + 1]
        if e == "x":
            v = int(body[i + 2:i + 4], 16)
            out.append(v if as_bytes else chr(v))
            i += 4
        elif e == "u":
            end = body.index("}", i)
            out.append(chr(int(body[i + 3:end], 16)))
            i = end + 1
        else:
            v = {"n": "\n", "t": "\t", "r": "\r"}.get(e, e)
            out.append(ord(v) if as_bytes else v)
            i += 2
    return bytes(out) if as_bytes else "".join(out)


def scalar(dtype, text):
    if dtype == "Str":
        return unescape(text[1:-1], False)
    if dtype == "Bytes":
        return unescape(text[2:-1], True)
    t = DTYPES[dtype]
    if dtype == "Bool":
        return t(text == "true")
    if dtype.startswith("Complex"):
        re_, im = text.split(",")
        return t(complex(float.fromhex(re_), float.fromhex(im)))
    if dtype.startswith("Float"):
        return t(float.fromhex(text))
    return t(int(text))


def array(dtype, spec, values):
    fields = dict(f.split("=") for f in spec.split())
    shape = tuple(int(d) for d in fields["shape"].split(",")) if fields["shape"] else ()
    strides = tuple(int(s) for s in fields["strides"].split(",")) if fields["strides"] else ()
    base = np.array([scalar(dtype, v) for v in values], dtype=DTYPES[dtype])
    if base.size == 0:
        base = np.zeros(max(int(fields["buf"]), 1), dtype=DTYPES[dtype])
    return np.ndarray(shape, DTYPES[dtype], buffer=base, offset=int(fields["offset"]), strides=strides), base


ARG = re.compile(r"arg (\w+)(\[\])? (.*)$")


def cases(expected):
    """(name, kind, export, args, bases) of each case of a `.expected` file."""
    case = None
    for line in pathlib.Path(expected).read_text().splitlines():
        if line.startswith("case "):
            if case:
                yield case
            case = [line[5:], None, None, [], []]
        elif line.startswith(("call ", "ufunc ")):
            case[1], case[2] = line.split()
        elif line.startswith("arg "):
            dtype, is_array, rest = ARG.match(line).groups()
            if is_array:
                spec, _, values = rest.partition(" :")
                a, base = array(dtype, spec, values.split())
                case[3].append(a)
                case[4].append(base)
            else:
                case[3].append(scalar(dtype, rest))
    if case:
        yield case


def python_args(f, args):
    """The Python arguments of a case's arguments, which are the IR's: a
    tuple parameter is its elements there, and a parameter that may be
    `None` its flag, then its value."""
    params = getattr(f, "parameters", None)
    if params is None:
        return args
    out, k = [], 0

    def value(t):
        nonlocal k
        if t.startswith("type["):
            # A dtype fixed when compiled: no IR argument.
            return np.dtype(t[len("type["):-1].lower())
        if t.startswith("tuple["):
            n = t.count(",") + 1
            k += n
            return tuple(args[k - n:k])
        k += 1
        return args[k - 1]

    for _, t in params:
        if t.endswith(" | None"):
            given = args[k]
            k += 1
            v = value(t[: -len(" | None")])
            out.append(v if given else None)
        else:
            out.append(value(t))
    return out


def show(v):
    """A value's exact text: type, dtype, shape and bytes."""
    if isinstance(v, np.ndarray):
        return f"array {v.dtype} {v.shape} {np.ascontiguousarray(v).tobytes().hex()}"
    if isinstance(v, np.generic):
        return f"{type(v).__name__} {np.asarray(v).tobytes().hex()}"
    if isinstance(v, tuple):
        return "(" + ", ".join(show(x) for x in v) + ")"
    return f"{type(v).__name__} {v!r}"


def outcome(f, args, kwargs=None):
    """The call's result or exception, then what it printed (`print` in
    compiled code writes to `sys.stdout`)."""
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            shown = show(f(*args, **(kwargs or {})))
    except Exception as e:  # the exception's type and message are the result
        shown = f"raises {type(e).__name__}: {e}"
    return shown + (f" printed {printed.getvalue()!r}" if printed.getvalue() else "")


def probes(f, args):
    """Calls of `f` with bad arguments made from good ones (each refused
    before the call, or, as a read-only input array, a call with the same
    values: none may change what the function computes, which could then
    run for ever)."""
    yield "too few", args[:-1], {}
    yield "too many", args + [0], {}
    yield "unknown keyword", args, {"no_such_parameter": 1}
    for i, a in enumerate(args):
        swap = lambda v: args[:i] + [v] + args[i + 1:]
        yield f"arg {i} object", swap(object()), {}
        if isinstance(a, np.ndarray):
            other = np.float32 if a.dtype != np.float32 else np.float64
            yield f"arg {i} dtype", swap(a.astype(other)), {}
            yield f"arg {i} rank", swap(a[..., None]), {}
            frozen = a.copy()
            frozen.setflags(write=False)
            yield f"arg {i} read-only", swap(frozen), {}
        elif isinstance(a, np.integer):
            yield f"arg {i} too large", swap(2**70), {}
            if isinstance(a, np.unsignedinteger):
                yield f"arg {i} negative", swap(-1), {}
        elif isinstance(a, np.floating):
            yield f"arg {i} complex", swap(1j), {}


# What an extension module has beside its exports (the package has them as
# `postc.set_num_threads` and `postc.get_num_threads`).
THREAD_FUNCTIONS = {"set_num_threads", "get_num_threads"}


def exports_of(mode, module):
    if mode == "package":
        return module.exports()
    return {k: v for k, v in vars(module).items()
            if not (k.startswith("__") and k.endswith("__")) and k not in THREAD_FUNCTIONS}


def transcript(mode, module, expected, out):
    exports = exports_of(mode, module)
    for name in sorted(exports):
        f = exports[name]
        sig = "" if isinstance(f, np.ufunc) else str(inspect.signature(f))
        out.append(f"export {name} {type(f).__name__}{sig} doc={f.__doc__!r}")
    first = {}
    for name, kind, export, args, bases in cases(expected):
        f = exports[export]
        args = python_args(f, args)
        out.append(f"case {name}: {outcome(f, args)}")
        for i, b in enumerate(bases):
            out.append(f"  buffer {i}: {b.tobytes().hex()}")
        if kind == "call":
            first.setdefault(export, (name, args))
    for export, (name, args) in sorted(first.items()):
        for what, bad, kwargs in probes(exports[export], args):
            out.append(f"probe {export} {what}: {outcome(exports[export], bad, kwargs)}")


def call_shown(f, args):
    return outcome(f, args)


def check_pickling(modules):
    """Every export pickles as itself; calls in a spawned pool give the
    results of this process. Returns the failures."""
    failures = []
    tasks = []
    for module, expected in modules:
        for name, f in exports_of("pyext", module).items():
            if pickle.loads(pickle.dumps(f)) is not f:
                failures.append(f"{module.__name__}.{name} does not unpickle as itself")
        seen = set()
        for name, kind, export, args, bases in cases(expected):
            if export in seen:
                continue
            seen.add(export)
            f = getattr(module, export)
            args = python_args(f, args)
            tasks.append((f"{module.__name__}.{export} ({name})", f, args, call_shown(f, [a.copy() if isinstance(a, np.ndarray) else a for a in args])))
    if len(tasks) < len(modules):
        failures.append(f"only {len(tasks)} calls for {len(modules)} modules")
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.starmap(call_shown, [(f, args) for _, f, args, _ in tasks])
    for (what, _, _, here), there in zip(tasks, results):
        if here != there:
            failures.append(f"{what}: {here} here, {there} in a spawned worker")
    return failures


def main():
    mode = sys.argv[1]
    out = []
    if mode == "package":
        import postc

        for program in sys.argv[2:]:
            out.append(f"program {pathlib.Path(program).stem}")
            transcript(mode, postc.compile(program), pathlib.Path(program).with_suffix(".expected"), out)
        print("\n".join(out))
        return 0
    import importlib

    sys.path.insert(0, sys.argv[2])
    modules = []
    for program in sys.argv[3:]:
        out.append(f"program {pathlib.Path(program).stem}")
        module = importlib.import_module(pathlib.Path(program).stem)
        expected = pathlib.Path(program).with_suffix(".expected")
        transcript(mode, module, expected, out)
        modules.append((module, expected))
    print("\n".join(out))
    failures = check_pickling(modules)
    for f in failures:
        print(f"pickling: {f}", file=sys.stderr)
    if "postc" in sys.modules:
        print("the postc package was imported", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
