"""`@ufunc(parallel=True)`: the serial ufunc's loops run by the runtime's
pool in chunks of the outer dimension. Results, panics and floating-point
errors are those of the serial ufunc (the same source compiled without
`parallel`) on every thread count; NumPy's reduce and accumulate, whose
loops overlap their output, still agree."""
import pickle

import numpy as np
import pytest

import postc
from postyp import Float64, Int64, Out

N = 200_001  # above the runtime's threshold (8192 elements)
THREADS = [t for t in (1, 2, 7) if t <= postc._MAX_THREADS]


@postc.ufunc(parallel=True)
def logistic(x: Float64) -> Float64:
    return 1.0 / (1.0 + 2.718281828459045 ** (-x))


@postc.ufunc("(n),(n)->()", parallel=True)
def dot(a: Float64[:], b: Float64[:]) -> Float64:
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


def add(a: Int64, b: Int64) -> Int64:
    return a + b


def pick(a: Float64[:], k: Int64) -> Float64:
    return a[k]


def scale(a: Float64[:], out: Out[Float64[:]]) -> None:
    for i in range(a.shape[0]):
        out[i] = a[i] * 1e300


def serial(u, signature=None):
    """The same source as a serial ufunc."""
    return postc.ufunc(u.py_func) if signature is None else postc.ufunc(signature)(u.py_func)


@pytest.fixture(params=THREADS)
def threads(request):
    before = postc.get_num_threads()
    postc.set_num_threads(request.param)
    yield request.param
    postc.set_num_threads(before)


def test_there_is_more_than_one_thread_to_try():
    assert postc._MAX_THREADS < 2 or len(THREADS) >= 2


def test_elementwise_equals_the_serial_ufunc(threads):
    x = np.linspace(-30.0, 30.0, N)
    want = serial(logistic)(x)
    assert logistic.parallel and not serial(logistic).parallel
    assert logistic(x).tobytes() == want.tobytes()
    # Strided, broadcast, out= and small calls.
    assert logistic(x[::3]).tobytes() == want[::3].tobytes()
    out = np.empty((2, N))
    logistic(x, out=out)
    assert out[1].tobytes() == want.tobytes()
    assert logistic(x[:10]).tobytes() == want[:10].tobytes()
    np.testing.assert_allclose(want, 1.0 / (1.0 + np.e ** (-x)), rtol=1e-15)


def test_generalized_equals_the_serial_ufunc(threads):
    rng = np.random.default_rng(5)
    a = rng.random((N // 8, 8))
    b = rng.random((N // 8, 8))
    want = serial(dot, "(n),(n)->()")(a, b)
    assert dot(a, b).tobytes() == want.tobytes()
    assert dot(a[::-1], b).tobytes() == serial(dot, "(n),(n)->()")(a[::-1], b).tobytes()
    np.testing.assert_allclose(want, np.einsum("ij,ij->i", a, b), rtol=1e-14)
    sc = postc.ufunc("(n)->(n)", parallel=True)(scale)
    c = a.copy()
    sc(c, out=c)  # in place
    assert c.tobytes() == (a * 1e300).tobytes()


def test_reduce_and_accumulate_are_numpys(threads):
    """NumPy runs these through the loop with overlapping operands: the
    runtime runs such calls serially."""
    padd = postc.ufunc(add, parallel=True)
    x = np.arange(N, dtype=np.int64) % 1000 - 300
    assert padd.reduce(x) == int(x.sum())
    assert np.array_equal(padd.accumulate(x), np.cumsum(x))
    y = x.copy()
    padd(y[:-1], y[1:], out=y[1:])  # overlap: NumPy copies
    z = x.copy()
    np.add(z[:-1], z[1:], out=z[1:])
    assert np.array_equal(y, z)


def test_typed_signatures(threads):
    u = postc.ufunc(["i8(i8, i8)", "f8(f8, f8)"], parallel=True)(add)
    a = np.arange(N, dtype=np.int64)
    assert np.array_equal(u(a, a), 2 * a)
    assert np.array_equal(u(a * 0.5, a * 0.5), a * 1.0)


def test_a_panic_is_the_serial_ufuncs(threads):
    """Many elements index past the end, in different chunks: the first
    one's message, as the serial loop's."""
    a = np.random.default_rng(2).random((N // 4, 5))
    k = np.zeros(N // 4, np.int64)
    k[[40_000, 9_000, 47_000]] = [6, 8, 7]
    ppick = postc.ufunc("(n),()->()", parallel=True)(pick)
    spick = postc.ufunc("(n),()->()")(pick)
    with pytest.raises(IndexError) as serial_error:
        spick(a, k)
    with pytest.raises(IndexError) as parallel_error:
        ppick(a, k)
    assert str(parallel_error.value) == str(serial_error.value)
    assert "index 8 is out of range" in str(serial_error.value)
    k[:] = 4
    assert ppick(a, k).tobytes() == a[:, 4].tobytes()


def test_floating_point_errors_reach_numpy(threads):
    """An overflow in any chunk is NumPy's to report, as for the serial loop."""
    sc = postc.ufunc("(n)->(n)", parallel=True)(scale)
    a = np.full((N // 4, 4), 0.5)
    a[N // 5, 2] = 1e10
    with np.errstate(over="raise"):
        with pytest.raises(FloatingPointError, match="overflow"):
            serial(sc, "(n)->(n)")(a)
        with pytest.raises(FloatingPointError, match="overflow"):
            sc(a)
        a[N // 5, 2] = 0.5
        assert sc(a).tobytes() == (a * 1e300).tobytes()


def test_the_option_is_checked_and_pickled():
    with pytest.raises(TypeError, match="parallel"):
        postc.ufunc(parallel=1)
    again = pickle.loads(pickle.dumps(logistic))
    assert again.parallel
    x = np.linspace(-1.0, 1.0, N)
    assert again(x).tobytes() == logistic(x).tobytes()
