"""Every ufunc of tests/programs as a real numpy.ufunc, against NumPy:
broadcasting, out=, the attributes NumPy gives a ufunc, NumPy's errors."""
import numpy as np
import pytest

import postc

rng = np.random.default_rng(7)


@pytest.fixture(scope="module")
def mods(programs):
    return {name: postc.compile(programs / f"{name}.pir") for name in ["saxpy", "stats", "dot", "horner", "matmul"]}


def horner_ref(x, c):
    return np.polyval(np.moveaxis(c, -1, 0), x) if c.shape[-1] else np.zeros(np.broadcast_shapes(np.shape(x), c.shape[:-1]))


def matmul_ref(a, b):
    return np.matmul(a, b)


# name, module, reference, input core ranks, signature
UFUNCS = [
    ("axpy", "saxpy", lambda a, x, y: a * x + y, [0, 0, 0], None),
    ("hypot", "stats", np.hypot, [0, 0], None),
    ("rowdot", "dot", lambda a, b: np.einsum("...n,...n->...", a, b), [1, 1], "(n),(n)->()"),
    ("horner", "horner", horner_ref, [0, 1], "(),(n)->()"),
    ("matmul", "matmul", matmul_ref, [2, 2], "(m,k),(k,n)->(m,n)"),
]

# Loop shapes per operand that broadcast together.
LOOP_SHAPES = [
    [(), (), ()],
    [(4,), (4,), (4,)],
    [(2, 3), (3,), (1,)],
    [(3, 1), (1, 4), (4,)],
    [(0,), (1,), ()],
    [(2, 1, 3), (4, 1), (1,)],
]


def core_shape(rank, name):
    return {0: (), 1: (5,), 2: (3, 4) if name == "a" else (4, 2)}[rank]


def operands(ranks, loops):
    ops = []
    for i, (rank, loop) in enumerate(zip(ranks, loops)):
        core = core_shape(rank, "a" if i == 0 else "b")
        ops.append(rng.standard_normal(tuple(loop) + core))
    return ops


@pytest.mark.parametrize("name,module,ref,ranks,sig", UFUNCS, ids=[u[0] for u in UFUNCS])
def test_is_a_numpy_ufunc(mods, name, module, ref, ranks, sig):
    u = getattr(mods[module], name)
    assert isinstance(u, np.ufunc)
    assert u.__name__ == name
    assert u.signature == sig
    assert u.nin == len(ranks) and u.nout == 1
    assert u.types == ["d" * len(ranks) + "->d"]


@pytest.mark.parametrize("loops", LOOP_SHAPES, ids=str)
@pytest.mark.parametrize("name,module,ref,ranks,sig", UFUNCS, ids=[u[0] for u in UFUNCS])
def test_broadcasts_as_numpy(mods, name, module, ref, ranks, sig, loops):
    u = getattr(mods[module], name)
    ops = operands(ranks, loops[: len(ranks)])
    np.testing.assert_allclose(u(*ops), ref(*ops), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name,module,ref,ranks,sig", UFUNCS, ids=[u[0] for u in UFUNCS])
def test_out_and_views(mods, name, module, ref, ranks, sig):
    u = getattr(mods[module], name)
    ops = operands(ranks, [(3, 2)] * len(ranks))
    # Inputs as transposed and strided views, the output a strided view.
    views = [np.swapaxes(np.ascontiguousarray(np.swapaxes(o, 0, 1)), 0, 1) for o in ops]
    expected = ref(*ops)
    big = np.full((6,) + expected.shape[1:], np.nan)
    out = big[::2]
    r = u(*views, out=out)
    assert r is out
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)
    assert np.isnan(big[1::2]).all()


def test_elementwise_ufunc_methods(mods):
    hypot = mods["stats"].hypot
    x = np.arange(6.0)
    np.testing.assert_allclose(hypot.outer(x, x), np.hypot.outer(x, x))
    np.testing.assert_allclose(hypot(x, 4, where=x > 2, out=np.zeros(6)), np.where(x > 2, np.hypot(x, 4), 0))
    # NumPy casts the inputs (int and float32 to float64).
    np.testing.assert_allclose(hypot(np.arange(3), np.float32(4)), np.hypot(np.arange(3), 4))


def test_numpy_raises_its_own_errors(mods):
    hypot, rowdot, matmul = mods["stats"].hypot, mods["dot"].rowdot, mods["matmul"].matmul
    with pytest.raises(ValueError, match="could not be broadcast"):
        hypot(np.zeros(3), np.zeros(4))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        rowdot(np.zeros(3), np.zeros(4))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        matmul(np.zeros((2, 3)), np.zeros((4, 2)))
    with pytest.raises(TypeError, match="not supported for the input types"):
        hypot(np.zeros(2, np.complex128), 1.0)
    with pytest.raises(TypeError):
        hypot(np.zeros(2), np.zeros(2), out=np.zeros(2, np.int64))


def test_python_program_ufuncs_match_the_pure_python_ones(py_programs, monkeypatch):
    """POST Python ufuncs over Int64, Float32 -> Bool, Complex128, Int16 and
    an output operand, compiled and as numpy.vectorize (POSTC_DISABLE_JIT)."""
    compiled = postc.compile(py_programs / "ufuncs.py")
    monkeypatch.setenv("POSTC_DISABLE_JIT", "1")
    python = postc.compile(py_programs / "ufuncs.py")
    monkeypatch.delenv("POSTC_DISABLE_JIT")
    assert python.library is None and isinstance(python.clip, np.vectorize)
    x = rng.standard_normal((3, 4))
    i64 = rng.integers(-100, 100, (2, 3))
    cases = {
        "clip": (x, -0.5, np.array([0.5, 1, 2, 3])),
        "imadd": (i64, i64[:1], 7),
        "in_unit_disk": (x.astype(np.float32), np.float32(0.5)),
        "csquare": (x + 1j * x[::-1],),
        "gcd16": (rng.integers(0, 500, 6).astype(np.int16), np.int16(48)),
        "normalize": (x,),
        "sqdist": (x[:, None, :], x[None, :, :]),
    }
    for name, args in cases.items():
        u = getattr(compiled, name)
        assert isinstance(u, np.ufunc), name
        got, want = u(*args), getattr(python, name)(*args)
        assert got.dtype == want.dtype, name
        np.testing.assert_allclose(got, want, rtol=1e-6 if got.dtype == np.float32 else 1e-12, err_msg=name)
    assert compiled.normalize.signature == "(n)->(n)" and compiled.in_unit_disk.types == ["ff->?"]
    assert compiled.gcd16.types == ["hh->h"] and compiled.csquare.types == ["D->D"]
