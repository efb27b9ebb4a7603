"""A wrong argument raises TypeError or ValueError naming the parameter
and what it expects, before any compiled code runs."""
import numpy as np
import pytest


def test_wrong_array_dtype(kernels):
    with pytest.raises(TypeError, match=r"total\(\): parameter `x` expects a float64 array \(Float64\[:\]\), got an array of float32"):
        kernels.total(np.zeros(3, np.float32))
    with pytest.raises(TypeError, match=r"parameter `x` expects a float32 array"):
        kernels.scale(np.zeros(3), 1.0)


def test_non_native_byte_order(kernels):
    with pytest.raises(TypeError, match=r"non-native byte order"):
        kernels.total(np.zeros(3, dtype=">f8"))


def test_wrong_rank(kernels):
    with pytest.raises(ValueError, match=r"parameter `x` expects a 1-dimensional array \(Float64\[:\]\), got 2 dimensions"):
        kernels.total(np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"parameter `a` expects a 2-dimensional array"):
        kernels.weighted(np.zeros(4))
    with pytest.raises(ValueError, match=r"got 0 dimensions"):
        kernels.total(np.array(1.0))


def test_wrong_static_extent(kernels):
    with pytest.raises(ValueError, match=r"trace3\(\): parameter `m` expects extent 3 on axis 1 \(Float64\[3, 3\]\), got shape \[3, 4\]"):
        kernels.trace3(np.zeros((3, 4)))


def test_static_shape_needs_its_layout(kernels):
    with pytest.raises(ValueError, match=r"parameter `m` expects a C-contiguous array .*numpy.ascontiguousarray"):
        kernels.trace3(np.eye(3).T.copy().T[:, :].T.copy(order="F"))
    with pytest.raises(ValueError, match=r"C-contiguous"):
        kernels.trace3(np.zeros((6, 3))[::2])


def test_read_only_output(kernels):
    y = np.ones(3, np.float32)
    y.flags.writeable = False
    with pytest.raises(ValueError, match=r"parameter `x` is an output \(Out\[Float32\[:\]\]\) and the array is read-only"):
        kernels.scale(y, 2.0)


def test_not_an_array(kernels):
    with pytest.raises(TypeError, match=r"parameter `x` expects a float64 array .*got list"):
        kernels.total([1.0, 2.0])


def test_misaligned_strides(kernels):
    raw = np.zeros(10, np.uint8)
    x = np.lib.stride_tricks.as_strided(raw[:8].view(np.float64), shape=(3,), strides=(3,))
    with pytest.raises(ValueError, match=r"parameter `x` has a byte stride 3 that is not a multiple of its element size 8"):
        kernels.total(x)


def test_wrong_scalar_kind(kernels):
    with pytest.raises(TypeError, match=r"add_i64\(\): parameter `a` expects Int64 \(a Python int or a NumPy integer\), got float"):
        kernels.add_i64(1.5, 2)
    with pytest.raises(TypeError, match=r"parameter `b` expects Int64 .*got float64"):
        kernels.add_i64(1, np.float64(2.0))
    with pytest.raises(TypeError, match=r"parameter `flag` expects Bool .*got int"):
        kernels.mix(1, 1, 1, 1.0)
    with pytest.raises(TypeError, match=r"parameter `x` expects Float32 .*got complex"):
        kernels.mix(True, 1, 1, 1j)
    with pytest.raises(TypeError, match=r"parameter `a` expects Int64 .*got ndarray"):
        kernels.add_i64(np.arange(2), 1)
    with pytest.raises(TypeError, match=r"parameter `name` expects Str .*got bytes"):
        kernels.greet(b"x")
    with pytest.raises(TypeError, match=r"parameter `b` expects Bytes .*got str"):
        kernels.blen("x")
    # A Bool takes no int, however large (no OverflowError first).
    for big in (2, 2**64, -(2**200)):
        with pytest.raises(TypeError, match=r"parameter `flag` expects Bool .*got int"):
            kernels.mix(big, 1, 1, 1.0)


def test_a_str_that_utf8_cannot_encode(kernels):
    for s in ("a\ud800", "\udfff", "x\ud83d"):
        with pytest.raises(ValueError, match=r"greet\(\): parameter `name` expects a str that UTF-8 can encode \(Str\), "
                                             r"got one it cannot: .*surrogates not allowed"):
            kernels.greet(s)
    assert kernels.greet("\U0001f600") == "Hello, \U0001f600!"


def test_integer_out_of_range(kernels):
    with pytest.raises(OverflowError, match=r"mix\(\): parameter `u`: Python integer 256 out of bounds for UInt8"):
        kernels.mix(True, 1, 256, 1.0)
    with pytest.raises(OverflowError, match=r"parameter `i`: Python integer -32769 out of bounds for Int16"):
        kernels.mix(True, -32769, 0, 1.0)
    with pytest.raises(OverflowError, match=r"out of bounds for Int64"):
        kernels.add_i64(2**63, 0)
    with pytest.raises(OverflowError, match=r"out of bounds for UInt64"):
        kernels.narrow(0, -1)
    with pytest.raises(OverflowError, match=r"out of bounds for Int8"):
        kernels.narrow(np.int64(200), 0)


def test_argument_count_and_names(kernels):
    with pytest.raises(TypeError, match=r"add_i64\(\) takes 2 positional arguments but 3 were given"):
        kernels.add_i64(1, 2, 3)
    with pytest.raises(TypeError, match=r"add_i64\(\) missing 1 required positional argument: 'b'"):
        kernels.add_i64(1)
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'c'"):
        kernels.add_i64(1, c=2)
    with pytest.raises(TypeError, match=r"multiple values for argument 'a'"):
        kernels.add_i64(1, a=2)


def test_the_call_after_errors_works(kernels):
    assert kernels.total(np.ones(4)) == 4
