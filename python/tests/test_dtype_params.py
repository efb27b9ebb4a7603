"""Dtype parameters (docs/python.md, "Dtype parameters"): `type[Float32]`
is a dtype fixed when the function compiles, which Python callers pass;
`np.dtype` (pandas' `result_dtype`) is compiled by `@jit` once for each
dtype a call gives. The oracle is CPython running the same source."""
import importlib.util

import numpy as np
import pytest

import postc

SOURCE = '''\
import numpy as np
import postc
from postyp import Float32, Float64, Int64


def fixed(n: Int64, dtype: type[Float32], x: Float64) -> Float32[:]:
    out = np.empty(n, dtype=dtype)
    for i in range(n):
        out[i] = x * i
    return out


@postc.jit
def scaled(values: Float64[:], result_dtype: np.dtype, k: Float64):
    out = np.empty(values.size, dtype=result_dtype)
    for i in range(values.size):
        out[i] = values[i] * k
    return out, values.size
'''


def load(tmp_path, name, text):
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return path, m


def test_a_fixed_dtype_parameter_takes_its_dtype(tmp_path):
    path, _ = load(tmp_path, "fixed_dtype", SOURCE[: SOURCE.index("@postc.jit")])
    m = postc.compile(path)
    for dtype in (np.float32, np.dtype("float32"), "float32"):
        got = m.fixed(4, dtype, 0.5)
        assert got.dtype == np.float32 and got.tolist() == [0.0, 0.5, 1.0, 1.5]
    with pytest.raises(TypeError, match=r"fixed\(\): parameter `dtype` is the dtype float32 it was compiled for"):
        m.fixed(4, np.float64, 0.5)
    with pytest.raises(TypeError, match=r"parameter `dtype`"):
        m.fixed(4, "not a dtype", 0.5)
    assert dict(m.fixed.parameters)["dtype"] == "type[Float32]"


def test_jit_compiles_a_numpy_dtype_parameter_for_each_dtype(tmp_path):
    _, m = load(tmp_path, "jit_dtype", SOURCE)
    x = np.array([1.0, -2.5, 4.0])
    for dtype, want in ((np.dtype(np.float32), np.float32), (np.float64, np.float64), (np.int32, np.int32)):
        out, n = m.scaled(x, dtype, 2.0)
        ref, _ = m.scaled.py_func(x, dtype, 2.0)
        assert out.dtype == want and np.array_equal(out, ref) and n == 3
    # One compiled function per dtype.
    assert len(m.scaled._compiled._compiled) == 3


def test_postc_compile_refuses_a_dtype_given_when_called(tmp_path):
    path, _ = load(tmp_path, "called_dtype", SOURCE.replace("@postc.jit\n", ""))
    with pytest.raises(postc.CompileError, match=r"parameter `result_dtype` is a dtype.*`result_dtype: type\[Float64\]`") as e:
        postc.compile(path)
    # One error (and the "aborting" line): the body's `dtype=result_dtype`
    # is not reported again.
    assert str(e.value).count("error:") == 2, str(e.value)
