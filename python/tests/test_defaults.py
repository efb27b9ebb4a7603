"""Default parameter values of exported functions, called from Python: a
call that leaves a defaulted parameter out passes its default, and a call
that binds wrongly raises CPython's TypeError text. The oracle is CPython
running the same source uncompiled (with the `postyp` stand-ins): every
call must give its value or its exception's type and text, and
`inspect.signature` must show the same parameters, kinds and defaults."""
import importlib.util
import inspect

import numpy as np
import pytest

SOURCE = '''\
import numpy as np
from postyp import Bool, Complex128, Float32, Float64, Int8, Int64


def poly(x: Float64, a: Float64 = 1.0, b: Float64 = -2.0, c: Int64 = 3) -> Float64:
    return a * x * x + b * x + c


def scaled(x: Float32, s: Float32 = 0.5, shift: Int8 = -2) -> Float32:
    return x * s + Float32(shift)


def rotate(z: Complex128, by: Complex128 = 1j) -> Complex128:
    return z * by


def clip(n: Int64, limit: Int64 = 10, negative: Bool = False) -> Int64:
    if negative:
        return max(-limit, min(n, 0))
    return max(0, min(n, limit))


def widest(n: Int64 = 9223372036854775807, m: Int64 = -9223372036854775807) -> Int64:
    return n + m


def total(x: Float64[:], scale: Float64 = 2, skip: Int64 = 0) -> Float64:
    s = 0.0
    for i in range(skip, len(x)):
        s += x[i]
    return s * scale


def nine(a: Int64, b: Int64, c: Int64, d: Int64, e: Int64, f: Int64, g: Int64 = 7, h: Int64 = 8,
         i: Int64 = 9) -> Int64:
    return a + 10 * b + 100 * c + 1000 * d + 10000 * e + 100000 * f + 1000000 * g + 10000000 * h + 100000000 * i


def pair(a: Int64, b: Int64) -> Int64:
    return a - b


def one(a: Int64) -> Int64:
    return a


def shear(x: Float64[:], *, factor: Int64 = 1, axis: Int64 = -1) -> Float64:
    return x.sum() * factor + axis


def named(a: Int64, b: Int64 = 2, *, c: Int64 = 3, d: Int64 = 4) -> Int64:
    return a + 10 * b + 100 * c + 1000 * d


def needs(a: Int64, *, c: Int64, d: Int64 = 4) -> Int64:
    return a + 100 * c + 1000 * d


def only(*, k: Int64) -> Int64:
    return k


def head(a: Int64, b: Int64 = 2, /, c: Int64 = 3) -> Int64:
    return a + 10 * b + 100 * c


def ordered(a: Int64, b: Int64, /) -> Int64:
    return a - b


def every_kind(a: Int64, /, b: Int64, *, c: Int64 = 3) -> Int64:
    return a + 10 * b + 100 * c


def masked_total(x: Float64[:], mask: Bool[:] = np.empty(shape=(0), dtype=np.bool_), scale: Float64 = 1.0) -> Float64:
    s = 0.0
    for i in range(len(x)):
        if mask.size == 0 or mask[i]:
            s += x[i]
    return s * scale


def weighted(x: Float64[:], w: Float32[:, :] = np.full((1, 3), 2.5, dtype=np.float32)) -> Float64:
    return (x * w).sum()
'''

X = np.arange(5.0)

CASES = [
    ("poly", (2.0,), {}),
    ("poly", (2.0, 3.0), {}),
    ("poly", (2.0,), {"c": 1, "a": 0.5}),
    ("poly", (), {"b": 0.25, "c": -7, "a": 2.0, "x": 2.0}),
    ("poly", (2.0, 3.0, 4.0, 5), {}),
    ("scaled", (np.float32(3.0),), {}),
    ("scaled", (np.float32(3.0),), {"shift": 3}),
    ("rotate", (1 + 2j,), {}),
    ("rotate", (1 + 2j, -1), {}),
    ("clip", (25,), {}),
    ("clip", (-25,), {"negative": True}),
    ("clip", (25, 5), {}),
    ("widest", (), {}),
    ("widest", (3,), {}),
    ("widest", (), {"m": -5}),
    ("total", (X,), {}),
    ("total", (X,), {"skip": 2}),
    ("total", (), {"x": X, "scale": 0.5}),
    ("nine", (1, 2, 3, 4, 5, 6), {}),
    ("nine", (1, 2, 3, 4, 5, 6), {"h": 0}),
    ("nine", (1, 2, 3, 4, 5, 6, 1, 2, 3), {}),
    # Binding errors: CPython's texts.
    ("poly", (), {}),
    ("poly", (), {"a": 1.0}),
    ("poly", (1.0, 2.0, 3.0, 4, 5), {}),
    ("poly", (1.0,), {"d": 2}),
    ("poly", (1.0, 2.0), {"a": 3.0}),
    ("widest", (1, 2, 3), {}),
    ("nine", (1, 2, 3), {}),
    ("nine", (1, 2, 3, 4), {}),
    ("nine", (), {"g": 1}),
    ("nine", tuple(range(10)), {}),
    ("total", (), {"scale": 1.0}),
    ("pair", (1, 2, 3), {}),
    ("pair", (1,), {}),
    ("one", (1, 2), {}),
    ("one", (), {}),
    # Keyword-only parameters (after `*`).
    ("shear", (X,), {}),
    ("shear", (X,), {"factor": 3}),
    ("shear", (), {"axis": 0, "x": X, "factor": -2}),
    ("named", (1,), {"c": 3}),
    ("named", (1, 5), {"d": 0, "c": 3}),
    ("named", (), {"c": 3, "a": 7}),
    ("only", (), {"k": 5}),
    ("shear", (X, 2), {}),
    ("shear", (X, 2, 3), {"axis": 1}),
    ("named", (1, 2, 3), {}),
    ("named", (1, 2, 3), {"c": 1, "d": 2}),
    ("named", (1,), {}),
    ("named", (), {}),
    ("named", (1,), {"e": 1, "c": 2}),
    ("needs", (1,), {"c": 2}),
    ("needs", (), {"d": 1, "c": 2, "a": 3}),
    ("needs", (1,), {}),
    ("needs", (), {}),
    ("needs", (1, 2), {}),
    ("needs", (1, 2), {"c": 5}),
    ("only", (), {}),
    ("only", (1,), {}),
    ("only", (1,), {"k": 2}),
    # Positional-only parameters (before `/`).
    ("head", (1,), {}),
    ("head", (1, 5), {}),
    ("head", (1, 5, 7), {}),
    ("head", (1,), {"c": 4}),
    ("ordered", (4, 1), {}),
    ("every_kind", (1, 2), {}),
    ("every_kind", (1,), {"b": 2, "c": 0}),
    ("head", (), {"a": 1}),
    ("head", (1,), {"b": 2}),
    ("head", (1,), {"b": 2, "z": 0}),
    ("head", (1,), {"z": 0, "b": 2}),
    ("head", (1, 2, 3, 4), {"b": 2}),
    ("head", (1, 2, 3, 4), {}),
    ("ordered", (), {"a": 1, "b": 2}),
    ("ordered", (1,), {}),
    ("every_kind", (), {"b": 2}),
    ("every_kind", (1, 2, 3), {}),
    ("every_kind", (1, 2), {"b": 3}),
]


def outcome(f, args, kwargs):
    try:
        value = f(*args, **kwargs)
    except TypeError as e:
        return ("TypeError", str(e))
    return ("value", complex(value))


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    """The source compiled by `postc.compile`, and imported uncompiled."""
    import postc

    path = tmp_path_factory.mktemp("defaults") / "defaults_source.py"
    path.write_text(SOURCE)
    spec = importlib.util.spec_from_file_location("defaults_source", path)
    uncompiled = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(uncompiled)
    return postc.compile(path), uncompiled


@pytest.mark.parametrize("name,args,kwargs", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_calls_bind_as_cpython_binds(modules, name, args, kwargs):
    compiled, uncompiled = modules
    expected = outcome(getattr(uncompiled, name), args, kwargs)
    assert outcome(getattr(compiled, name), args, kwargs) == expected
    # `PyObject_Call` with a tuple and a dict binds the same way.
    f = getattr(compiled, name)
    assert outcome(lambda *a, **k: type(f).__call__(f, *a, **k), args, kwargs) == expected


def without_annotations(sig):
    return sig.replace(parameters=[p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()],
                       return_annotation=inspect.Signature.empty)


@pytest.mark.parametrize("name", sorted({c[0] for c in CASES}))
def test_signatures_show_the_defaults(modules, name):
    compiled, uncompiled = modules
    expected = without_annotations(inspect.signature(getattr(uncompiled, name)))
    got = inspect.signature(getattr(compiled, name))
    assert str(got) == str(expected)
    assert [(p.name, p.kind, p.default) for p in got.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in expected.parameters.values()]
    assert getattr(compiled, name).__text_signature__ == str(expected)
    # The default is the object CPython holds: the int 2 for a Float64.
    assert type(inspect.signature(compiled.total).parameters["scale"].default) is int


def test_array_defaults_are_made_once_and_read_only(modules):
    """An array default is NumPy's array of the default's shape, dtype and
    fill, made once (as CPython evaluates a default once), read-only; a
    call that leaves the parameter out passes it."""
    compiled, uncompiled = modules
    x = np.array([1.0, 2.5, -4.0])
    m = np.array([True, False, True])
    for args, kwargs in [((x,), {}), ((x, m), {}), ((x,), {"scale": 2.0}), ((x,), {"mask": m, "scale": -1.0})]:
        assert compiled.masked_total(*args, **kwargs) == uncompiled.masked_total(*args, **kwargs)
    assert compiled.weighted(x) == pytest.approx(uncompiled.weighted(x))
    mask = inspect.signature(compiled.masked_total).parameters["mask"].default
    assert isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and mask.shape == (0,)
    assert not mask.flags.writeable
    w = inspect.signature(compiled.weighted).parameters["w"].default
    assert w.dtype == np.float32 and w.shape == (1, 3) and (w == np.float32(2.5)).all()
    assert inspect.signature(compiled.weighted).parameters["w"].default is w
