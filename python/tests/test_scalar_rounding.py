"""A number passed for a float parameter (or a complex one's parts) is
rounded once, from its exact value, to the nearest value of the dtype,
ties to even — as NumPy casts (`numpy.float32(numpy.int64(x))`,
`numpy.float64(x).astype(numpy.float16)`). Rounding to Float64 first and
then to the dtype differs exactly when the first rounding lands on the
second's halfway point; the values below are those."""
import numpy as np
import pytest

F32 = dict(bits=24, top=128)  # significand bits, and 2**top: the first power of two past the range
F16 = dict(bits=11, top=16)
F64 = dict(bits=53, top=1024)


def nearest(v, bits, top):
    """The float of `bits` significand bits nearest the integer `v` (ties
    to even), as an exact Python int or float('inf'): no float arithmetic,
    so it is a reference independent of NumPy and of the package."""
    negative, v = v < 0, abs(v)
    shift = v.bit_length() - bits
    if shift > 0:
        q, r = divmod(v, 1 << shift)
        halfway = 1 << (shift - 1)
        if r > halfway or (r == halfway and q & 1):
            q += 1
        v = q << shift
    if v >= 1 << top:
        v = float("inf")
    return -v if negative else v


def double_rounding_cases(bits):
    """Integers whose rounding to Float64 lands on a halfway point of a
    `bits`-bit float: (2**bits + 1) * 2**k + 1 and its neighbours, for
    every k that puts the +1 below Float64's precision."""
    out = []
    for k in range(54 - bits, 100):
        tie = ((1 << bits) + 1) << k
        out += [tie + 1, tie - 1, tie, tie + (1 << k) + 1]
    return out


def test_the_cases_are_double_rounding_cases():
    """Through Float64 the cases round differently than at once: the test
    below would have caught the double rounding."""
    v = 2**53 + 2**29 + 1
    assert nearest(v, **F32) == 2**53 + 2**30
    assert int(np.float32(float(v))) == 2**53
    assert sum(nearest(v, **F32) != int(np.float32(float(v))) for v in double_rounding_cases(24)) > 40


def test_int64_and_uint64_for_a_float32(kernels):
    for v in double_rounding_cases(24):
        for x in (v, -v):
            want = nearest(x, **F32)
            if -(2**63) <= x < 2**63:
                assert want == int(np.float32(np.int64(x)))  # NumPy's own cast rounds once
                assert int(kernels.as_f32(np.int64(x))) == want, x
            if 0 <= x < 2**64:
                assert want == int(np.float32(np.uint64(x)))
                assert int(kernels.as_f32(np.uint64(x))) == want, x
            # A Python int of any size is rounded once as well.
            got = kernels.as_f32(x)
            assert (float(got) if np.isinf(got) else int(got)) == want, x


def test_python_ints_beyond_64_bits(kernels):
    # Float64: Python's float() rounds once, for any size; from the halfway
    # point past the largest double up, it raises.
    for v in [2**64 + 2**11 + 1, 2**100 + 2**47 + 1, 2**200 + 2**147 + 1, -(2**300 + 2**247 + 1),
              2**1024 - 2**970 - 1]:
        assert kernels.as_f64(v) == float(v) == nearest(v, **F64), v
    for v in [2**1024 - 2**970, 2**1024, 10**400, -(10**400)]:
        with pytest.raises(OverflowError, match=r"as_f64\(\): parameter `x`: Python integer .* out of bounds for Float64"):
            kernels.as_f64(v)
    # Float32: 2**127 .. 2**128 (beyond i128, within u128) and beyond.
    for v in [2**127 + 2**103 + 1, 2**127 + 2**103, 2**128 - 2**103 - 1, 2**128 - 2**103, 2**128, 10**400]:
        for x in (v, -v):
            want = nearest(x, **F32)
            got = kernels.as_f32(x)
            assert (float(got) if np.isinf(got) else int(got)) == want, x
    assert kernels.as_f32(2**127 + 2**103 + 1) == np.float32(2**127 + 2**104)
    assert kernels.as_f16(-(10**400)) == -np.inf
    assert kernels.as_c128(2**200 + 2**147 + 1) == complex(float(2**200 + 2**147 + 1), 0)
    with pytest.raises(OverflowError, match=r"as_c128\(\): parameter `z`: Python integer"):
        kernels.as_c128(2**1024)
    assert kernels.as_c64(2**129) == np.complex64(complex(np.inf, 0))


def test_integers_for_a_float16(kernels):
    for v in list(range(2040, 2060)) + list(range(65500, 65540)) + [4097, 4099, 8193, 2**24 + 1, 2**60]:
        for x in (v, -v):
            want = np.float16(nearest(x, **F16))
            with np.errstate(over="ignore"):
                assert want == np.float16(np.int64(x))
            assert kernels.as_f16(x) == want, x
            assert kernels.as_f16(np.int64(x)) == want, x
            assert kernels.as_f16(np.int32(x)) == want if -(2**31) <= x < 2**31 else True


def test_random_integers_agree_with_numpys_cast(kernels):
    rng = np.random.default_rng(7)
    bits = rng.integers(1, 63, size=3000)
    values = [int(rng.integers(0, 1 << b)) * int(rng.choice([1, -1])) for b in bits]
    as_int64 = np.array(values, np.int64)
    for name, f in [("float16", kernels.as_f16), ("float32", kernels.as_f32), ("float64", kernels.as_f64)]:
        with np.errstate(over="ignore"):
            want = as_int64.astype(name)
        got = np.array([f(np.int64(v)) for v in values], name)
        assert got.tobytes() == want.tobytes(), name
        got = np.array([f(v) for v in values], name)
        assert got.tobytes() == want.tobytes(), name


def test_complex_parts(kernels):
    for v in [v for v in double_rounding_cases(24) if v < 2**63]:
        want = nearest(v, **F32)
        assert want == int(np.array([v], np.int64).astype(np.complex64)[0].real)
        z = kernels.as_c64(np.int64(v))
        assert int(z.real) == want and z.imag == 0, v
        z = kernels.as_c64(v)
        assert int(z.real) == want and z.imag == 0, v
    # complex128 parts are Float64: a Python int rounds once to it.
    v = 2**64 + 2**11 + 1
    assert kernels.as_c128(v).real == float(v)
    assert kernels.as_c128(np.uint64(2**64 - 1)).real == float(2**64 - 1)
    # A Python float's parts for a Complex64 are rounded once from Float64.
    x = 1 + 2**-24 + 2**-52
    assert kernels.as_c64(complex(x, -x)) == np.complex64(complex(x, -x))
    assert kernels.as_c64(complex(x, -x)).real == np.float32(1 + 2**-23)


def test_floats_for_a_float16(kernels):
    """Float64 to Float16 directly: through Float32 it rounds twice."""
    for x in [1 + 2**-11 + 2**-40, 1 + 2**-11 - 2**-40, 1 + 2**-11, 1 + 3 * 2**-11, 2048 + 1 + 2**-30,
              65504 + 16 - 2**-30, 65504 + 16, 2**-25 + 2**-60, 2**-25, 3 * 2**-26 + 2**-70, 2**-14 - 2**-25 - 2**-60]:
        for v in (x, -x):
            with np.errstate(over="ignore"):
                want = np.float64(v).astype(np.float16)
            assert kernels.as_f16(v).tobytes() == want.tobytes(), v
            assert kernels.as_f16(np.float64(v)).tobytes() == want.tobytes(), v
    assert kernels.as_f16(1 + 2**-11 + 2**-40) == np.float16(1 + 2**-10)
    rng = np.random.default_rng(11)
    # Doubles around Float16's range, subnormals to overflow, and NaN and
    # infinities.
    x = np.ldexp(rng.uniform(1, 2, 4000), rng.integers(-30, 18, 4000)) * rng.choice([1, -1], 4000)
    x = np.concatenate([x, [np.nan, np.inf, -np.inf, 0.0, -0.0]])
    with np.errstate(over="ignore"):
        want = x.astype(np.float16)
    got = np.array([kernels.as_f16(float(v)) for v in x], np.float16)
    assert got.tobytes() == want.tobytes()
    got = np.array([kernels.as_f16(np.float32(v)) for v in x], np.float16)
    with np.errstate(over="ignore"):
        assert got.tobytes() == x.astype(np.float32).astype(np.float16).tobytes()


def test_long_doubles_for_narrow_floats(kernels):
    """A long double is cast by NumPy to the parameter's precision (its
    `__float__` would round to Float64 first): to a Float32 once, to a
    Float16 as NumPy casts it (through Float64). Where long double is
    Float64 the two ways agree anyway."""
    ld = np.longdouble(1) + np.longdouble(2**-24) + np.longdouble(2**-60)
    assert kernels.as_f32(ld) == np.float32(ld)
    assert kernels.as_c64(ld) == np.complex64(np.float32(ld))
    assert kernels.as_f64(ld) == np.float64(ld)
    h = np.longdouble(1) + np.longdouble(2**-11) + np.longdouble(2**-60)
    assert kernels.as_f16(h) == np.float16(h)
    if np.finfo(np.longdouble).nmant > 52:
        assert kernels.as_f32(ld) == np.float32(1 + 2**-23)
