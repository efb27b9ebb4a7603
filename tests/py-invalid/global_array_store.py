# A module-level array is read-only: an element store, a slice
# assignment, an augmented store, `+=` on a view, a store through a view
# bound to a local and an in-place sort are refused.
import numpy as np
from postyp import Float64, Int64

L0 = np.array([[175347046.0, 0.0, 0.0], [3341656.0, 4.6692568, 6283.07585]])


def store(x: Float64) -> None:
    L0[0, 0] = x


def slice_store(x: Float64) -> None:
    L0[:, 1] = x


def augmented(i: Int64) -> None:
    L0[i, 2] += 1.0


def whole(x: Float64) -> None:
    L0[0] += x


def through_view(x: Float64) -> None:
    row = L0[1]
    row[0] = x


def sort_row() -> None:
    L0[1].sort()
