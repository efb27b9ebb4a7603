"""Matrix products in compiled code (docs/performance.md, "Matrix
products against NumPy"): an inner product, a matrix times a vector and
a matrix times a matrix, each one `np.dot` or `@`."""
import numpy as np
from postyp import Float64

__all__ = ["inner", "matvec", "matmat"]


def inner(a: Float64[:], b: Float64[:]) -> Float64:
    return np.dot(a, b)


def matvec(a: Float64[:, :], x: Float64[:]) -> Float64[:]:
    return a @ x


def matmat(a: Float64[:, :], b: Float64[:, :]) -> Float64[:, :]:
    return a @ b
