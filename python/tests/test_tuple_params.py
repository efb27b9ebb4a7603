"""Functions that take tuples of numbers, called from Python: the argument
is a tuple of as many numbers, each converted as a scalar argument is (a
NumPy scalar or a Python number); anything else raises TypeError before
any compiled code runs. The oracle is CPython running the same source
uncompiled (with the `postyp` stand-ins)."""
import importlib.util
import inspect

import numpy as np
import pytest

SOURCE = '''\
from typing import Tuple

import numpy as np
from postyp import Bool, Float32, Float64, Int32, Int64


def window(a: Float64[:], bounds: tuple[Int64, Int64], /) -> Float64:
    s = 0.0
    for i in range(bounds[0], bounds[1]):
        s += a[i]
    return s


def shifted(x: Float64, by: Tuple[Int32, Float32, Bool], *, k: Int64 = 2) -> Float64:
    lo, step, negate = by
    r = x * step + lo * k
    return -r if negate else r


def area(shape: tuple[Int64, Int64]) -> Int64:
    h, w = shape
    return h * w


def many(a: tuple[Int64, Int64, Int64, Int64], b: tuple[Float64, Float64, Float64, Float64],
         c: tuple[Int64, Int64, Int64]) -> Float64:
    return (a[0] + a[1] + a[2] + a[3]) * 1000.0 + b[0] + b[1] * 10.0 + b[2] * 100.0 + b[3] + c[0] - c[1] + c[2]
'''

A = np.array([0.5, 1.5, -2.0, 4.0])


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    """The source compiled by `postc.compile`, and imported uncompiled."""
    import postc

    path = tmp_path_factory.mktemp("tuple_params") / "tuple_params_source.py"
    path.write_text(SOURCE)
    spec = importlib.util.spec_from_file_location("tuple_params_source", path)
    uncompiled = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(uncompiled)
    return postc.compile(path), uncompiled


@pytest.mark.parametrize("name,args,kwargs", [
    ("window", (A, (1, 3)), {}),
    ("window", (A, (np.int32(0), np.int64(4))), {}),
    ("shifted", (2.0, (3, 0.5, False)), {}),
    ("shifted", (2.0, (np.int32(-3), np.float32(0.25), True)), {"k": 5}),
    ("shifted", (), {"x": 1.0, "by": (1, 1.0, np.bool_(True))}),
    ("area", (A.reshape(2, 2).shape,), {}),
    # Nine arguments or more: the call does not fit in registers.
    ("many", ((1, 2, 3, 4), (0.5, 0.25, 0.125, 8.0), (7, 8, 9)), {}),
])
def test_tuples_pass_their_elements(modules, name, args, kwargs):
    compiled, uncompiled = modules
    got = getattr(compiled, name)(*args, **kwargs)
    want = getattr(uncompiled, name)(*args, **kwargs)
    assert got == pytest.approx(want, rel=1e-6)


@pytest.mark.parametrize("arg,message", [
    ((1, 2, 3), "takes a tuple of 2 numbers, not a tuple of 3"),
    ([1, 3], "takes a tuple of 2 numbers, not list"),
    (4, "takes a tuple of 2 numbers, not int"),
    (None, "takes a tuple of 2 numbers, not NoneType"),
])
def test_other_objects_raise_type_error(modules, arg, message):
    compiled, _ = modules
    with pytest.raises(TypeError, match=r"^window\(\): parameter `bounds` " + message):
        compiled.window(A, arg)


def test_elements_convert_as_scalars(modules):
    compiled, _ = modules
    # An element that does not fit its dtype raises as a scalar does.
    with pytest.raises((TypeError, OverflowError)):
        compiled.window(A, (1.5, 2))
    with pytest.raises((TypeError, OverflowError)):
        compiled.window(A, (2**70, 2))


def test_out_of_bounds_from_a_tuple_is_an_index_error(modules):
    compiled, _ = modules
    with pytest.raises(IndexError):
        compiled.window(A, (0, 9))


def test_signatures_show_the_tuples(modules):
    compiled, uncompiled = modules
    assert str(inspect.signature(compiled.window)) == "(a, bounds, /)"
    assert str(inspect.signature(compiled.shifted)) == "(x, by, *, k=2)"
    assert dict(compiled.shifted.parameters)["by"] == "tuple[Int32, Float32, Bool]"
