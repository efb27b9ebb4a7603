"""`np.linalg.det` of square 2-D arrays: NumPy's LU factorization with
partial pivoting, its sign and `exp` of the logarithms' sum; integers
and Bools as Float64, Float32 kept; views of any layout; a zero pivot
gives 0.0; a non-square array raises NumPy's LinAlgError."""
import numpy as np
from postyp import Bool, Float32, Float64, Int64


def det(a: Float64[:, :]) -> Float64:
    """The determinant, as `np.linalg.det` gives it."""
    return np.linalg.det(a)


def det_of_ints(a: Int64[:, :]) -> Float64:
    """Of integers: factored in Float64."""
    return np.linalg.det(a)


def det_single(a: Float32[:, :]) -> Float32:
    """Of Float32: factored and returned in Float32."""
    return np.linalg.det(a)


def det_of_bools(a: Bool[:, :]) -> Float64:
    """Of Bools: 0.0 and 1.0."""
    return np.linalg.det(a)


def is_rotation(rot: Float64[:], tol: Float64) -> Bool:
    """MNE's check of a rotation matrix held flat: `det` of a reshape."""
    d = np.linalg.det(np.reshape(rot, (3, 3)))
    return np.abs(d - 1.0) <= tol
