"""Python's `math` in functions `@postc.jit` compiles: CPython's results
(Python floats and ints, weak under NEP 50) and CPython's exceptions, the
plain function (`.py_func`) as the oracle."""
import math
from math import floor as floor_of

import numpy as np
import pytest

import postc
from postyp import Float32, Float64, Int32, Int64


def scaled_root(x: Float32, y: Float64) -> Float32:
    return x * math.sqrt(y) + math.pi


def root(x: Float32) -> Float64:
    return math.sqrt(x)


def shifted(n: Int32, x: Float64) -> Int32:
    return n + floor_of(x)


def logarithm(x: Float64) -> Float64:
    return math.log(x)


def grown(x: Float64) -> Float64:
    return math.exp(x)


def whole(x: Float64) -> Int64:
    return math.ceil(x)


@pytest.fixture(scope="module")
def jit():
    """The functions above, compiled (after conftest's fixture has set up
    the cache and turned compilation on)."""
    compiled = {f.__name__: postc.jit(f) for f in (scaled_root, root, shifted, logarithm, grown, whole)}
    assert all(c.py_func is globals()[n] for n, c in compiled.items())
    return compiled


def same(got, want):
    assert got == want and np.asarray(got).dtype == np.asarray(want).dtype, (got, want)


def test_results_have_cpythons_types_and_values(jit):
    same(jit["scaled_root"](np.float32(1.5), 2.0), scaled_root(np.float32(1.5), 2.0))
    assert type(jit["scaled_root"](np.float32(1.5), 2.0)) is np.float32
    # Float32 in, a Python float out: computed in double, as CPython.
    assert jit["root"](np.float32(2.0)) == root(np.float32(2.0)) == math.sqrt(float(np.float32(2.0)))
    assert jit["root"](np.float32(2.0)) != float(np.sqrt(np.float32(2.0)))
    same(jit["shifted"](np.int32(70000), -2.5), shifted(np.int32(70000), -2.5))
    assert type(shifted(np.int32(70000), -2.5)) is np.int32
    assert jit["whole"](-2.5) == whole(-2.5) == -2


@pytest.mark.parametrize(
    "name, x, exc, text",
    [
        ("logarithm", 0.0, ValueError, "math domain error"),
        ("logarithm", -1.0, ValueError, "math domain error"),
        ("grown", 1000.0, OverflowError, "math range error"),
        ("whole", float("nan"), ValueError, "cannot convert float NaN to integer"),
        ("whole", float("inf"), OverflowError, "cannot convert float infinity to integer"),
    ],
)
def test_errors_are_cpythons_exceptions(jit, name, x, exc, text):
    plain = globals()[name]
    with pytest.raises(exc, match=text):
        plain(x)
    with pytest.raises(exc, match=text):
        jit[name](x)
    # The interpreter survives: the next call works.
    assert jit[name](2.0) == plain(2.0)
