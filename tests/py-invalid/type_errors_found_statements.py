# error: `np.where` and `np.clip` of what the lowering does not take, refused by the typecheck: other than 3 arguments (lines 8, 12), an operand that is not a number nor an array of numbers (lines 16, 20, 24, 28, 32), numbers only (lines 36, 40, 44); an augmented assignment of a tuple to a number or an array (lines 47, 52, 56), of `None` (line 60), of a string to an array (line 64); `None` stored into a view, through an array index, into elements (lines 68, 72, 76)
import numpy as np
from postyp import Complex128, Float64, Int64, Out, Str


def where_two(b: Float64[:]) -> Float64[:]:
    return np.where(b > 0.0, b)


def clip_two(b: Float64[:]) -> Float64[:]:
    return np.clip(b, 1.0)


def where_string(b: Float64[:], s: Str) -> Float64[:]:
    return np.where(b > 0.0, b, s)


def where_tuple(b: Float64[:]) -> Float64[:]:
    return np.where(b > 0.0, b, (1, 2))


def where_none(b: Float64[:]) -> Float64[:]:
    return np.where(b > 0.0, b, None)


def clip_complex(z: Complex128[:]) -> Complex128[:]:
    return np.clip(z, 0, 1)


def clip_none(b: Float64[:]) -> Float64[:]:
    return np.clip(b, 0.0, None)


def where_numbers(x: Float64) -> Float64:
    return np.where(x > 0.0, 1.0, 2.0)


def clip_numbers(x: Float64) -> Float64:
    return np.clip(x, 0.0, 1.0)


def where_in_array_expression(b: Float64[:], x: Float64) -> Float64[:]:
    return b + np.where(x > 0.0, 1.0, 2.0)


def tuple_added_to_number(x: Float64) -> Float64:
    x += (1, 2)
    return x


def tuple_added_to_element(a: Out[Float64[:]]) -> None:
    a[0] += (1.0, 2.0)


def tuple_subtracted_from_array(a: Out[Float64[:]]) -> None:
    a[...] -= (1, 2)


def none_subtracted_from_array(a: Out[Float64[:]]) -> None:
    a -= None


def string_added_to_array(a: Out[Float64[:]], s: Str) -> None:
    a += s


def none_into_view(a: Out[Float64[:]]) -> None:
    a[0:2] = None


def none_through_array_index(a: Out[Float64[:]], i: Int64[:]) -> None:
    a[i] = None


def none_into_elements(a: Out[Float64[:, :]]) -> None:
    a[0, 0], a[0, 1] = None, None
