"""DLPack arguments: postc asks for the versioned protocol
(`__dlpack__(max_version=(1, 0))`), falls back to the unversioned one for
producers that refuse the keyword, and honours a versioned tensor's flags:
a read-only tensor (or a copy the producer made) is refused for an `Out`
parameter with postc's own message, as a read-only NumPy array is."""
import numpy as np
import pytest

from capsules import IS_COPIED, of_array
from capsules import READ_ONLY as READ_ONLY_FLAG

READ_ONLY = r"scale\(\): parameter `x` is an output \(Out\[Float32\[:\]\]\) and the array is read-only"


class Versioned:
    """A producer of the current protocol over a NumPy array (NumPy >= 2.1
    exports versioned capsules, with the read-only flag for a read-only
    array and the copied flag for a copy)."""

    def __init__(self, a, copy=None):
        self.a = a
        self.copy = copy
        self.asked = []

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        self.asked.append(max_version)
        return self.a.__dlpack__(max_version=max_version, copy=self.copy)

    def __dlpack_device__(self):
        return (1, 0)


class Legacy:
    """A producer of the unversioned protocol only: the keyword is a
    TypeError."""

    def __init__(self, a):
        self.a = a
        self.calls = 0

    def __dlpack__(self, stream=None):
        self.calls += 1
        return self.a.__dlpack__()

    def __dlpack_device__(self):
        return (1, 0)


def test_the_versioned_protocol_is_asked_for(kernels):
    x = Versioned(np.arange(4.0))
    assert kernels.total(x) == 6
    assert x.asked == [(1, 0)]
    capsule = np.arange(2.0).__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(capsule)


def test_an_unversioned_producer_still_works(kernels):
    x = Legacy(np.arange(5.0))
    assert kernels.total(x) == 10
    assert x.calls == 1  # the first, keyword, call raised before reaching it
    buf = np.ones(4, np.float32)
    kernels.scale(Legacy(buf), 3)
    assert buf.tolist() == [3, 3, 3, 3]


def test_a_writable_versioned_output_is_written(kernels):
    buf = np.ones(6, np.float32)
    kernels.scale(Versioned(buf[::2]), 5)
    assert buf.tolist() == [5, 1, 5, 1, 5, 1]


def test_numpys_read_only_export_is_refused_for_an_output(kernels):
    y = np.ones(3, np.float32)
    y.flags.writeable = False
    with pytest.raises(ValueError, match=READ_ONLY):
        kernels.scale(Versioned(y), 2.0)
    assert y.tolist() == [1, 1, 1]
    # As an input it is read, as any read-only array.
    z = np.arange(3.0)
    z.flags.writeable = False
    assert kernels.total(Versioned(z)) == 3


def test_a_copy_the_producer_made_is_refused_for_an_output(kernels):
    y = np.ones(3, np.float32)
    with pytest.raises(ValueError, match=r"parameter `x` is an output .* exported a copy of the array"):
        kernels.scale(Versioned(y, copy=True), 2.0)
    assert kernels.total(Versioned(np.arange(3.0), copy=True)) == 3


def test_a_handmade_read_only_capsule(kernels):
    y = np.ones(4, np.float32)
    with pytest.raises(ValueError, match=READ_ONLY):
        kernels.scale(of_array(y, flags=READ_ONLY_FLAG), 2.0)
    assert y.tolist() == [1, 1, 1, 1]
    kernels.scale(of_array(y[::2]), 2.0)
    assert y.tolist() == [2, 1, 2, 1]
    with pytest.raises(ValueError, match=r"exported a copy of the array"):
        kernels.scale(of_array(y, flags=IS_COPIED), 2.0)


def test_a_later_major_version_is_refused(kernels):
    with pytest.raises(ValueError, match=r"parameter `x`: the producer exported DLPack 2\.0, which postc cannot read"):
        kernels.scale(of_array(np.ones(2, np.float32), version=(2, 0)), 2.0)
